import { describe, expect, it } from 'vitest';
import { linkProof, linkSecretBytes, newLinkSecret, readLinkSecret } from './link-secret';
import type { SasInput } from './sas';

// docs/protocol.md, "Secret link". The vectors were computed once from the definition with
// Node's createHmac (a separate HMAC implementation over the same UTF-8 text), and are pinned so
// that every Ferry build proves the same link the same way.
const SECRET = 'AAECAwQFBgcICQoLDA0ODw';
const INPUT: SasInput = {
  senderNonce: '5a'.repeat(32),
  receiverNonce: 'c3'.repeat(32),
  senderFingerprint: 'sha-256 AA:BB',
  receiverFingerprint: 'sha-256 CC:DD',
};

describe('the secret link’s proofs', () => {
  it.each([
    ['sender', 'efe3f56a8b0bad6923165b34a163124570a9b8aec137bda059e1d77a0aa9b7f8'],
    ['receiver', '0efc04257945ad112636b7ae696c29c715250723e00bd42764b07c66d42f6f00'],
  ] as const)('match the pinned HMAC for the %s', async (role, mac) => {
    expect(await linkProof(SECRET, role, INPUT)).toBe(mac);
  });

  it('differ when either side sees a different certificate, as under a man in the middle', async () => {
    const honest = await linkProof(SECRET, 'receiver', INPUT);
    const middle = { ...INPUT, senderFingerprint: 'sha-256 EE:FF' };
    expect(await linkProof(SECRET, 'receiver', middle)).not.toBe(honest);
  });

  it('differ under another secret', async () => {
    const other = 'AAECAwQFBgcICQoLDA0OEA';
    expect(await linkProof(other, 'sender', INPUT)).not.toBe(
      await linkProof(SECRET, 'sender', INPUT),
    );
  });
});

describe('the secret itself', () => {
  it('is 16 fresh bytes in base64url without padding', () => {
    const secret = newLinkSecret(() => Uint8Array.from({ length: 16 }, (_, i) => i));
    expect(secret).toBe(SECRET);
    expect(linkSecretBytes(secret)).toEqual(Uint8Array.from({ length: 16 }, (_, i) => i));
  });

  it('round-trips every byte value', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => 255 - i * 9);
    expect(linkSecretBytes(newLinkSecret(() => bytes))).toEqual(bytes);
  });

  it('refuses a random source that gives the wrong amount', () => {
    expect(() => newLinkSecret(() => new Uint8Array(15))).toThrow(RangeError);
  });

  it.each([
    ['a secret', SECRET, SECRET],
    ['too short', SECRET.slice(1), undefined],
    ['padded', `${SECRET}==`, undefined],
    ['base64, not base64url', `${SECRET.slice(0, 21)}+`, undefined],
    ['bits past the 16 bytes', `${SECRET.slice(0, 21)}x`, undefined],
  ])('reads %s', (_, text, read) => {
    expect(readLinkSecret(text)).toBe(read);
  });
});
