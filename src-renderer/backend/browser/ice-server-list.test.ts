import { describe, expect, it } from 'vitest';
import type { HttpAnswer } from './http-json';
import { iceServersFrom, STUN_ONLY } from './ice-server-list';

const answered = (status: number, body: unknown): HttpAnswer => ({
  kind: 'answered',
  status,
  body,
});

describe('the ICE servers a browser peer connects through', () => {
  it('takes a self-hosted list whose urls are strings', () => {
    const body = [
      { urls: 'stun:turn.example:3478' },
      { urls: 'turn:turn.example:3478', username: '1700000000:relayuser', credential: 'c2VjcmV0' },
      { urls: 'turns:turn.example:5349', username: '1700000000:relayuser', credential: 'c2VjcmV0' },
    ];
    expect(iceServersFrom(answered(200, body))).toEqual({ servers: body });
  });

  it('takes a relay provider’s list whose urls are arrays', () => {
    const body = [
      { urls: ['stun:stun.relay.example:3478'] },
      {
        urls: ['turn:turn.relay.example:3478?transport=udp', 'turns:turn.relay.example:443'],
        username: 'minted',
        credential: 'secret',
      },
    ];
    expect(iceServersFrom(answered(200, body))).toEqual({ servers: body });
  });

  it('an empty list from a LAN room means host candidates only, with no STUN added', () => {
    expect(iceServersFrom(answered(200, []))).toEqual({ servers: [] });
  });

  it('falls back to STUN only when the server is over its rate limit (429)', () => {
    const choice = iceServersFrom(answered(429, { error: 'Too many requests' }));
    expect(choice.servers).toEqual(STUN_ONLY);
    expect(
      STUN_ONLY.every(({ urls }) => [urls].flat().every((url) => url.startsWith('stun:'))),
    ).toBe(true);
  });

  it.each<[string, HttpAnswer]>([
    ['no answer', { kind: 'unreachable', detail: 'Failed to fetch' }],
    ['the 30-second deadline', { kind: 'timed-out' }],
    ['an object instead of an array', answered(200, { urls: 'stun:x' })],
    ['an entry without urls', answered(200, [{ username: 'u' }])],
    ['an empty urls array', answered(200, [{ urls: [] }])],
    ['a credential that is not text', answered(200, [{ urls: 'turn:x', credential: 5 }])],
    ['a server error', answered(500, { error: 'Internal server error' })],
  ])('warns and uses STUN only after %s', (_case, answer) => {
    const choice = iceServersFrom(answer);
    expect(choice.servers).toEqual(STUN_ONLY);
    expect(choice.warning).toEqual(expect.any(String));
  });
});
