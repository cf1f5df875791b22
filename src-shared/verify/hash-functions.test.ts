import { createHash, createHmac, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERIFY_BLOCK_BYTES } from '../protocol/limits';
import { digestOfBlocks, FileDigest, toHex } from './file-digest';
import { fallbackIncrementalSha256, hmacSha256, sha256 } from './hash-functions';
import { linkProof } from './link-secret';
import { commitmentTo, verificationWords, type SasInput } from './sas';
import { senderFileId } from './sender-file-id';

// docs/architecture.md, "Hashing": WebCrypto where the runtime has it, JavaScript where it does
// not (a page on plain http). Each case runs both ways and must give the same bytes.

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A page that is not a secure context: `crypto` keeps getRandomValues, loses `subtle`. */
function withoutWebCrypto(): void {
  const { getRandomValues } = globalThis.crypto;
  vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const RUNTIMES = [
  ['WebCrypto', () => undefined],
  ['no WebCrypto (plain http)', withoutWebCrypto],
] as const;

describe.each(RUNTIMES)('with %s', (_, setUp) => {
  it('hides WebCrypto only where asked', () => {
    setUp();
    const hidden = setUp === withoutWebCrypto;
    expect(globalThis.crypto.subtle === undefined).toBe(hidden);
    expect(fallbackIncrementalSha256() === undefined).toBe(!hidden);
  });

  it('SHA-256 of "abc" is FIPS 180-2’s answer', async () => {
    setUp();
    expect(toHex(await sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('SHA-256 of a 4 MiB block and of nothing match Node’s', async () => {
    setUp();
    const block = new Uint8Array(randomBytes(VERIFY_BLOCK_BYTES));
    for (const bytes of [block, new Uint8Array(0)]) {
      expect(toHex(await sha256(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('HMAC-SHA256 gives RFC 4231’s test case 2', async () => {
    setUp();
    expect(toHex(await hmacSha256(utf8('Jefe'), utf8('what do ya want for nothing?')))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('HMAC-SHA256 with a key longer than a block matches Node’s', async () => {
    setUp();
    const key = new Uint8Array(randomBytes(131));
    const data = new Uint8Array(randomBytes(1000));
    expect(toHex(await hmacSha256(key, data))).toBe(
      createHmac('sha256', key).update(data).digest('hex'),
    );
  });

  it('a file digest over more than two blocks, fed unevenly, is the SHA-256 of its block digests', async () => {
    setUp();
    const bytes = new Uint8Array(randomBytes(2 * VERIFY_BLOCK_BYTES + 777));
    const blocks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += VERIFY_BLOCK_BYTES) {
      blocks.push(
        createHash('sha256')
          .update(bytes.subarray(at, at + VERIFY_BLOCK_BYTES))
          .digest(),
      );
    }
    const reported: number[] = [];
    const digest = new FileDigest([], (index) => reported.push(index));
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 13) % 300_000) {
      await digest.update(bytes.subarray(at, at + size));
    }
    expect(await digest.finish()).toBe(
      createHash('sha256').update(Buffer.concat(blocks)).digest('hex'),
    );
    expect(await digestOfBlocks(blocks)).toBe(await digest.finish());
    expect(reported).toEqual([0, 1]);
  });

  // Pinned in link-secret.test.ts, sas.test.ts and sender-file-id.test.ts with WebCrypto; a page
  // without it must prove the same link, show the same words and name the same file.
  const INPUT: SasInput = {
    senderNonce: '5a'.repeat(32),
    receiverNonce: 'c3'.repeat(32),
    senderFingerprint: 'sha-256 AA:BB',
    receiverFingerprint: 'sha-256 CC:DD',
  };

  it('proves the secret link with the pinned HMAC', async () => {
    setUp();
    expect(await linkProof('AAECAwQFBgcICQoLDA0ODw', 'sender', INPUT)).toBe(
      'efe3f56a8b0bad6923165b34a163124570a9b8aec137bda059e1d77a0aa9b7f8',
    );
  });

  it('shows the same verification words and file ids as WebCrypto does', async () => {
    vi.unstubAllGlobals();
    const file = { device: 'salt', path: 'a/b.txt', size: 12, modified: 1_700_000_000_000 };
    const words = await verificationWords(INPUT);
    const commitment = await commitmentTo(INPUT.senderNonce);
    const id = await senderFileId(file);
    setUp();
    expect(await verificationWords(INPUT)).toBe(words);
    expect(await commitmentTo(INPUT.senderNonce)).toBe(commitment);
    expect(await senderFileId(file)).toBe(id);
  });
});

describe('a file digest given a block hasher off the thread (a page’s hash workers)', () => {
  it('hands it every whole block, a copy it may keep, and gives the same digest', async () => {
    withoutWebCrypto();
    const bytes = new Uint8Array(randomBytes(2 * VERIFY_BLOCK_BYTES + 5));
    const handed: Uint8Array[] = [];
    const offThread = (block: Uint8Array) => {
      const copy = block.slice();
      handed.push(copy);
      return Promise.resolve(new Uint8Array(createHash('sha256').update(copy).digest()));
    };
    const digest = new FileDigest([], undefined, undefined, offThread);
    for (let at = 0; at < bytes.length; at += 65_536) {
      await digest.update(bytes.subarray(at, at + 65_536));
    }
    const withWorkers = await digest.finish();
    expect(handed.map((block) => block.byteLength)).toEqual([
      VERIFY_BLOCK_BYTES,
      VERIFY_BLOCK_BYTES,
      5,
    ]);
    const inline = new FileDigest();
    await inline.update(bytes);
    expect(withWorkers).toBe(await inline.finish());
  });
});
