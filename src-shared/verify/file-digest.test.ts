import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VERIFY_BLOCK_BYTES } from '../protocol/limits';
import { digestOfBlocks, FileDigest } from './file-digest';

// docs/protocol.md, "Verification": SHA-256 over 4 MiB blocks, the file's digest the SHA-256 of
// the block digests in order.
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

function reference(bytes: Uint8Array): string {
  const blocks: Buffer[] = [];
  for (let at = 0; at < bytes.length || blocks.length === 0; at += VERIFY_BLOCK_BYTES) {
    blocks.push(sha256(bytes.subarray(at, at + VERIFY_BLOCK_BYTES)));
  }
  return sha256(Buffer.concat(blocks)).toString('hex');
}

/** Fed in uneven chunks that straddle block boundaries, as a network delivers them. */
async function digestInChunks(bytes: Uint8Array, digest: FileDigest): Promise<string> {
  for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 13) % 300_000) {
    await digest.update(bytes.subarray(at, at + size));
  }
  return digest.finish();
}

const WAYS = [
  ['WebCrypto, a block at a time', () => undefined],
  ['an incremental hash (Node)', () => () => createHash('sha256')],
] as const;

describe.each(WAYS)('a file digest with %s', (_, incremental) => {
  it.each([0, 1, VERIFY_BLOCK_BYTES, 2 * VERIFY_BLOCK_BYTES + 12_345])(
    'of %i bytes is the SHA-256 of its block digests',
    async (size) => {
      const bytes = new Uint8Array(randomBytes(size));
      expect(await digestInChunks(bytes, new FileDigest([], undefined, incremental()))).toBe(
        reference(bytes),
      );
    },
  );

  it('reports each full block once, in order, and never the short last one', async () => {
    const bytes = new Uint8Array(randomBytes(3 * VERIFY_BLOCK_BYTES + 5));
    const reported: [number, string][] = [];
    const digest = new FileDigest(
      [],
      (index, block) => reported.push([index, Buffer.from(block).toString('hex')]),
      incremental(),
    );
    await digestInChunks(bytes, digest);
    expect(reported).toEqual(
      [0, 1, 2].map((index) => [
        index,
        sha256(
          bytes.subarray(index * VERIFY_BLOCK_BYTES, (index + 1) * VERIFY_BLOCK_BYTES),
        ).toString('hex'),
      ]),
    );
  });

  it('carries on from the blocks a resume already checked', async () => {
    const bytes = new Uint8Array(randomBytes(2 * VERIFY_BLOCK_BYTES + 99));
    const first = sha256(bytes.subarray(0, VERIFY_BLOCK_BYTES));
    const rest = bytes.subarray(VERIFY_BLOCK_BYTES);
    expect(await digestInChunks(rest, new FileDigest([first], undefined, incremental()))).toBe(
      reference(bytes),
    );
    expect(await digestOfBlocks([first])).toBe(sha256(first).toString('hex'));
  });
});
