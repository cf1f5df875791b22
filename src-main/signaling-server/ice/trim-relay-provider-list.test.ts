import { describe, expect, it } from 'vitest';
import { trimRelayProviderList } from './trim-relay-provider-list';

const creds = { username: 'u', credential: 'c' };

describe('trimming a relay provider list', () => {
  it('accepts the provider’s older answer, one iceServers object instead of an array', () => {
    const single = {
      urls: [
        'stun:r.example:3478',
        'turn:r.example:3478?transport=udp',
        'turns:r.example:443?transport=tcp',
      ],
      ...creds,
    };
    expect(trimRelayProviderList(single)).toEqual(trimRelayProviderList([single]));
    expect(trimRelayProviderList(single)).toEqual([
      { urls: ['stun:r.example:3478'] },
      {
        urls: ['turn:r.example:3478?transport=udp', 'turns:r.example:443?transport=tcp'],
        ...creds,
      },
    ]);
  });

  it('prefers TLS on 443 over other TLS ports and over plain TCP', () => {
    expect(
      trimRelayProviderList([
        {
          urls: [
            'turn:r.example:80?transport=tcp',
            'turns:r.example:5349?transport=tcp',
            'turn:r.example:3478',
            'turns:r.example:443?transport=tcp',
          ],
          ...creds,
        },
      ]),
    ).toEqual([{ urls: ['turn:r.example:3478', 'turns:r.example:443?transport=tcp'], ...creds }]);
  });

  it('falls back to TLS on another port, then to plain TCP on 443', () => {
    expect(
      trimRelayProviderList([
        { urls: ['turn:r.example:3478?transport=udp', 'turns:r.example:5349'], ...creds },
      ])[0].urls,
    ).toEqual(['turn:r.example:3478?transport=udp', 'turns:r.example:5349']);
    expect(
      trimRelayProviderList([
        {
          urls: ['turn:r.example:80?transport=tcp', 'turn:r.example:443?transport=tcp'],
          ...creds,
        },
      ])[0].urls,
    ).toEqual(['turn:r.example:443?transport=tcp']);
  });

  it('accepts urls as a string and keeps STUN in its own entry', () => {
    expect(
      trimRelayProviderList([
        { urls: 'stun:s.example:3478' },
        { urls: 'turn:[2001:db8::1]:3478', ...creds },
      ]),
    ).toEqual([{ urls: ['stun:s.example:3478'] }, { urls: ['turn:[2001:db8::1]:3478'], ...creds }]);
  });

  it.each([
    ['no array', { iceServers: [] }],
    ['no TURN URL', [{ urls: ['stun:s.example:3478'] }]],
    ['TURN without credentials', [{ urls: ['turn:r.example:3478'] }]],
  ])('throws on %s', (_case, list) => {
    expect(() => trimRelayProviderList(list)).toThrow();
  });
});
