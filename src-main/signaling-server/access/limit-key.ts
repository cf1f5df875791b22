import { isIPv4, isIPv6 } from 'node:net';

/**
 * Hextets of an IPv6 address that name one end site: a /64 is the smallest prefix an ISP hands
 * out, so a single client can draw on 2^64 addresses inside it (docs/protocol.md, "Server limits").
 */
const SITE_PREFIX_HEXTETS = 4;

const IPV4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0xffff];

/**
 * The key every per-IP limit counts a client under: an IPv4 address as it is, an IPv6 address by
 * its /64 prefix, and an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as the IPv4 address it maps,
 * so that one client cannot count under many keys by choosing its source address.
 */
export function limitKey(address: string): string {
  const withoutZone = address.split('%')[0];
  if (!isIPv6(withoutZone)) return address;
  const hextets = expandIpv6(withoutZone);
  if (IPV4_MAPPED_PREFIX.every((hextet, index) => hextets[index] === hextet)) {
    const [high, low] = hextets.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const prefix = hextets.slice(0, SITE_PREFIX_HEXTETS).map((hextet) => hextet.toString(16));
  return `${prefix.join(':')}::/64`;
}

// The eight 16-bit groups of a valid IPv6 address, `::` filled and a dotted IPv4 tail converted.
function expandIpv6(address: string): number[] {
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  const text = isIPv4(tail) ? `${address.slice(0, lastColon + 1)}${ipv4Hextets(tail)}` : address;
  const [head, rest] = text.split('::');
  const groups = (part: string | undefined) =>
    part === undefined || part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const front = groups(head);
  const back = groups(rest);
  const fill = rest === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...fill, ...back];
}

function ipv4Hextets(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
