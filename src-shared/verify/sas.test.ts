import { describe, expect, it } from 'vitest';
import { CODE_WORDS } from '../codes/word-list';
import {
  commitmentTo,
  fingerprintLineCount,
  fingerprintOfSdp,
  newNonce,
  normalizeFingerprint,
  verificationWords,
  wordsOfDigest,
  type SasInput,
} from './sas';

// docs/protocol.md, "Verification words". The vectors were computed once, from the definition,
// by a separate Python script (hashlib over the same bytes, the same word list), and are pinned
// so that every Ferry build derives the same words from the same connection.
const hexPrint = (step: number, start: number): string =>
  Array.from({ length: 32 }, (_, i) =>
    ((i * step + start) % 256).toString(16).padStart(2, '0').toUpperCase(),
  ).join(':');
const SENDER_PRINT = `sha-256 ${hexPrint(7, 0)}`;
const RECEIVER_PRINT = `sha-256 ${hexPrint(13, 5)}`;
const BASE: SasInput = {
  senderNonce: '11'.repeat(32),
  receiverNonce: '22'.repeat(32),
  senderFingerprint: SENDER_PRINT,
  receiverFingerprint: RECEIVER_PRINT,
};

describe('the verification words', () => {
  it.each([
    [BASE, 'scope start claim'],
    [{ ...BASE, senderNonce: '00'.repeat(32), receiverNonce: 'ff'.repeat(32) }, 'blush ocean city'],
  ])('derive the pinned words from %o', async (input, words) => {
    expect(await verificationWords(input)).toBe(words);
  });

  it('differ when either side sees a different certificate, as under a man in the middle', async () => {
    const mitm = `sha-256 ${hexPrint(3, 1)}`;
    const honest = await verificationWords(BASE);
    expect(await verificationWords({ ...BASE, receiverFingerprint: mitm })).not.toBe(honest);
    expect(await verificationWords({ ...BASE, senderFingerprint: mitm })).not.toBe(honest);
  });

  it('depend on the order of the roles, for nonces and fingerprints alike', async () => {
    const honest = await verificationWords(BASE);
    const noncesSwapped = {
      ...BASE,
      senderNonce: BASE.receiverNonce,
      receiverNonce: BASE.senderNonce,
    };
    const printsSwapped = {
      ...BASE,
      senderFingerprint: BASE.receiverFingerprint,
      receiverFingerprint: BASE.senderFingerprint,
    };
    expect(await verificationWords(noncesSwapped)).toBe('april uncut comic');
    expect(await verificationWords(printsSwapped)).toBe('sweep bask blob');
    expect(new Set([honest, 'april uncut comic', 'sweep bask blob']).size).toBe(3);
  });

  it('read the first 6 bytes as n, and n mod L, n/L mod L, n/L² mod L as the words', () => {
    const count = CODE_WORDS.length;
    const n = 5 + 7 * count + 11 * count * count;
    const digest = new Uint8Array(32).fill(0xee);
    for (let i = 5, rest = n; i >= 0; i -= 1, rest = Math.floor(rest / 256)) digest[i] = rest % 256;
    expect(wordsOfDigest(digest)).toBe(`${CODE_WORDS[5]} ${CODE_WORDS[7]} ${CODE_WORDS[11]}`);
    // Bytes past the sixth do not count.
    expect(wordsOfDigest(digest.map((byte, i) => (i < 6 ? byte : 0)))).toBe(wordsOfDigest(digest));
  });

  it('commit to a nonce with SHA-256 of its 32 bytes, in lowercase hex', async () => {
    expect(await commitmentTo('11'.repeat(32))).toBe(
      '02d449a31fbb267c8f352e9968a79e3e5fc95c1bbeaa502fd6454ebde5a4bedc',
    );
    await expect(commitmentTo('11'.repeat(31))).rejects.toThrow(RangeError);
    await expect(commitmentTo('AA'.repeat(32))).rejects.toThrow(RangeError);
  });

  it('draw a nonce of 32 bytes, and refuse a source that gives any other amount', () => {
    expect(newNonce((count) => new Uint8Array(count).fill(0xab))).toBe('ab'.repeat(32));
    expect(() => newNonce(() => new Uint8Array(16))).toThrow(RangeError);
  });
});

describe('a certificate fingerprint, as the words hash it', () => {
  it('is normalized to a lowercase algorithm and uppercase hex with colons', () => {
    expect(normalizeFingerprint('SHA-256', ' ab:cd:0f ')).toBe('sha-256 AB:CD:0F');
    for (const value of ['abcd', 'AB:C', 'AB::CD', 'GG:00', '']) {
      expect(normalizeFingerprint('sha-256', value)).toBeUndefined();
    }
    expect(normalizeFingerprint('sha 256', 'AB:CD')).toBeUndefined();
  });

  it('is read from the first a=fingerprint line of an SDP, whatever its line endings', () => {
    const sdp = [
      'v=0',
      'o=rtc 1 0 IN IP4 127.0.0.1',
      'a=fingerprint:sha-256 09:19:95:59:be:8c',
      'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
      'a=fingerprint:sha-256 FF:FF:FF:FF:FF:FF',
      '',
    ].join('\r\n');
    expect(fingerprintOfSdp(sdp)).toBe('sha-256 09:19:95:59:BE:8C');
    expect(fingerprintOfSdp(sdp.replaceAll('\r\n', '\n'))).toBe('sha-256 09:19:95:59:BE:8C');
  });

  it('skips a malformed line, and is absent from an SDP without one', () => {
    expect(fingerprintOfSdp('a=fingerprint:sha-256 nothex\r\na=fingerprint:sha-1 AA:BB\r\n')).toBe(
      'sha-1 AA:BB',
    );
    expect(fingerprintOfSdp('v=0\r\na=setup:actpass\r\n')).toBeUndefined();
  });
});

describe('fingerprintLineCount', () => {
  it('counts every a=fingerprint line, session and media level, well formed or not', () => {
    const sdp = [
      'v=0',
      'a=fingerprint:sha-256 09:19:95:59:BE:8C',
      'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
      'a=fingerprint:sha-256 nothex',
      'A=FINGERPRINT:sha-1 AA:BB',
      '',
    ].join('\r\n');
    expect(fingerprintLineCount(sdp)).toBe(3);
    expect(fingerprintLineCount(sdp.replaceAll('\r\n', '\r'))).toBe(3);
    expect(fingerprintLineCount('v=0\r\na=setup:actpass\r\n')).toBe(0);
  });
});
