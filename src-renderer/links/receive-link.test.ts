import { describe, expect, it } from 'vitest';
import { codeFromLink, receiveLink, webClientFor } from './receive-link';

describe('the receive link a QR code carries', () => {
  it('is the code itself when no web client is known', () => {
    expect(receiveLink('acid-otter-plank', undefined)).toBe('acid-otter-plank');
  });

  it('opens the web client’s receive screen with the code', () => {
    expect(receiveLink('acid-otter-plank', 'http://192.168.1.20:3001')).toBe(
      'http://192.168.1.20:3001/#receive=acid-otter-plank',
    );
  });

  it('falls back to the code when the web client address is not a URL', () => {
    expect(receiveLink('acid-otter-plank', 'not a url')).toBe('acid-otter-plank');
  });

  it.each([
    ['#receive=acid-otter-plank', 'acid-otter-plank'],
    ['#receive=Acid%20Otter%20Plank', 'acid-otter-plank'],
    ['#receive=acid', null],
    ['#receive=%E0%A4%A', null],
    ['#send=acid-otter-plank', null],
    ['', null],
  ])('reads %j as %j', (hash, code) => {
    expect(codeFromLink(hash)).toBe(code);
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
