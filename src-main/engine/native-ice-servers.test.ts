import { describe, expect, it } from 'vitest';
import { hasRelay, toNativeIceServers } from './native-ice-servers';

describe('the server ICE list in node-datachannel form', () => {
  it('moves TURN credentials into the URL, percent-encoded, since the username holds a colon', () => {
    const servers = toNativeIceServers([
      { urls: 'stun:turn.example:3478' },
      { urls: 'turn:turn.example:3478', username: '1700000000:relayuser', credential: 'a+b/c=' },
    ]);

    expect(servers).toEqual([
      'stun:turn.example:3478',
      'turn:1700000000%3Arelayuser:a%2Bb%2Fc%3D@turn.example:3478',
    ]);
  });

  it('accepts both forms of urls, a string and an array, as the spec requires', () => {
    const servers = toNativeIceServers([
      { urls: ['stun:stun.example:3478'] },
      {
        urls: ['turn:relay.example:3478?transport=udp', 'turns:relay.example:443?transport=tcp'],
        username: 'u',
        credential: 'p',
      },
    ]);

    expect(servers).toEqual([
      'stun:stun.example:3478',
      'turn:u:p@relay.example:3478?transport=udp',
      'turns:u:p@relay.example:443?transport=tcp',
    ]);
  });

  it('drops what libdatachannel would refuse: stuns, unknown schemes, TURN without credentials', () => {
    const entries = [
      { urls: 'stuns:stun.example:5349' },
      { urls: 'http://example' },
      { urls: 'turn:relay.example:3478' },
    ];

    expect(toNativeIceServers(entries)).toEqual([]);
    expect(hasRelay(entries)).toBe(false);
  });
});
