import { describe, expect, it } from 'vitest';
import { clientIp } from './client-ip';

describe('client IP', () => {
  it.each([
    ['the socket address without a trusted proxy', '10.0.0.1', '1.1.1.1', 0, '10.0.0.1'],
    ['the last entry behind one proxy', '10.0.0.1', '1.1.1.1, 2.2.2.2', 1, '2.2.2.2'],
    ['the second entry from the right behind two', '10.0.0.1', '1.1.1.1, 2.2.2.2', 2, '1.1.1.1'],
    ['the leftmost entry when the header is short', '10.0.0.1', '2.2.2.2', 3, '2.2.2.2'],
    ['the socket address when the header is absent', '10.0.0.1', undefined, 1, '10.0.0.1'],
    ['the socket address when the header is empty', '10.0.0.1', ' , ', 1, '10.0.0.1'],
  ])('is %s', (_case, remote, forwardedFor, trusted, expected) => {
    expect(clientIp(remote, forwardedFor, trusted)).toBe(expected);
  });

  it('reads repeated X-Forwarded-For headers as one list', () => {
    expect(clientIp('10.0.0.1', ['1.1.1.1', '2.2.2.2'], 2)).toBe('1.1.1.1');
  });
});
