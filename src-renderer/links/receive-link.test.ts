import { describe, expect, it } from 'vitest';
import {
  reachableFromOtherDevices,
  receiveFromLink,
  receiveLink,
  webClientFor,
} from './receive-link';

const KEY = 'q83vEjRWeJCrze8SNFZ4kA';

describe('the receive link a QR code carries', () => {
  it('is the code itself when no web client is known', () => {
    expect(receiveLink('acid-otter-plank', undefined)).toBe('acid-otter-plank');
  });

  it('opens the web client’s receive screen with the code', () => {
    expect(receiveLink('acid-otter-plank', 'http://192.168.1.20:3001')).toBe(
      'http://192.168.1.20:3001/#receive=acid-otter-plank',
    );
  });

  it('carries the secret link’s key beside the code in the fragment', () => {
    expect(receiveLink('acid-otter-plank', 'http://192.168.1.20:3001', KEY)).toBe(
      `http://192.168.1.20:3001/#receive=acid-otter-plank&key=${KEY}`,
    );
  });

  it('falls back to the code when the web client address is not a URL', () => {
    expect(receiveLink('acid-otter-plank', 'not a url')).toBe('acid-otter-plank');
  });

  it.each([
    ['#receive=acid-otter-plank', { code: 'acid-otter-plank' }],
    ['#receive=Acid%20Otter%20Plank', { code: 'acid-otter-plank' }],
    [`#receive=acid-otter-plank&key=${KEY}`, { code: 'acid-otter-plank', key: KEY }],
    ['#receive=acid', null],
    ['#receive=%E0%A4%A', null],
    ['#send=acid-otter-plank', null],
    ['', null],
  ])('reads %j as %j', (hash, opened) => {
    expect(receiveFromLink(hash)).toEqual(opened);
  });

  it.each([
    ['too short', KEY.slice(1)],
    ['too long', `${KEY}A`],
    ['not base64url', `${KEY.slice(0, 21)}+`],
    ['bits past the 16 bytes', `${KEY.slice(0, 21)}B`],
    ['empty', ''],
  ])('refuses a link whose key is %s, rather than use its code alone', (_, key) => {
    expect(receiveFromLink(`#receive=acid-otter-plank&key=${key}`)).toBeNull();
  });

  it('round-trips what it writes', () => {
    const link = receiveLink('acid-otter-plank', 'https://ferry.example/', KEY);
    expect(receiveFromLink(new URL(link).hash)).toEqual({ code: 'acid-otter-plank', key: KEY });
  });
});

describe('which web client can receive a code', () => {
  const room = { state: 'on', url: 'http://192.168.1.20:3001' } as const;

  it('is this device’s LAN room when the code lives on that very server', () => {
    expect(webClientFor(room, 'http://192.168.1.20:3001/', undefined)).toBe(room.url);
  });

  it('is not the LAN room when the code was registered on another server', () => {
    expect(webClientFor(room, 'https://ferry.example', undefined)).toBeUndefined();
    expect(webClientFor(room, 'https://ferry.example', 'https://ferry.example')).toBe(
      'https://ferry.example',
    );
  });

  it('is not a LAN room that is off', () => {
    expect(webClientFor({ state: 'off' }, 'http://192.168.1.20:3001', undefined)).toBeUndefined();
  });
});

describe('whether another device can open a web client', () => {
  it.each([
    'http://localhost:3000/',
    'http://LOCALHOST:3000',
    'http://ferry.localhost/',
    'http://127.0.0.1:3000/',
    'http://127.8.9.1/',
    'http://[::1]:3000/',
    'http://[::ffff:127.0.0.1]/',
    'not a url',
  ])('%s leads a phone nowhere', (url) => {
    expect(reachableFromOtherDevices(url)).toBe(false);
  });

  it.each(['http://192.168.1.20:3001/', 'https://ferry.example/', 'http://[fe80::1]:3001/'])(
    '%s can be opened from another device on its network',
    (url) => {
      expect(reachableFromOtherDevices(url)).toBe(true);
    },
  );
});
