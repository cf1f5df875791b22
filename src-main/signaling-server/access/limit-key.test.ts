import { describe, expect, it } from 'vitest';
import { limitKey } from './limit-key';

describe('the key a per-IP limit counts a client under', () => {
  it.each([
    ['an IPv4 address as it is', '198.51.100.7', '198.51.100.7'],
    ['an IPv6 address by its /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['a compressed IPv6 address by its /64', '2001:db8::1', '2001:db8:0:0::/64'],
    ['leading zeros and case folded away', '2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['a zone id ignored', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['an IPv4-mapped address as its IPv4 address', '::ffff:198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped address in hex as its IPv4 address', '::ffff:c633:6407', '198.51.100.7'],
    ['loopback IPv6 by its /64', '::1', '0:0:0:0::/64'],
    ['anything unparsable as it is', 'unknown', 'unknown'],
  ])('is %s', (_case, address, expected) => {
    expect(limitKey(address)).toBe(expected);
  });

  it('is one key for any two addresses of one /64, and two keys for neighbouring /64s', () => {
    expect(limitKey('2001:db8:1:2::1')).toBe(limitKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(limitKey('2001:db8:1:2::1')).not.toBe(limitKey('2001:db8:1:3::1'));
  });
});
