import { describe, expect, it } from 'vitest';
import { VERIFY_BLOCK_BYTES } from '../protocol/limits';
import { sha256 } from './hash-functions';
import { digestLine, readSidecar, sidecarMaxBytes, sidecarText } from './part-sidecar';

const identity = { name: 'album/big.bin', size: 3 * VERIFY_BLOCK_BYTES + 10, senderFileId: 'abc' };
const digests = async (count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => sha256(new Uint8Array([i]))));

describe('the .part sidecar (docs/protocol.md, "Resume")', () => {
  it('reads back the blocks it lists', async () => {
    const blocks = await digests(2);
    expect(readSidecar(sidecarText(identity, blocks), identity)).toEqual(blocks);
    expect(readSidecar(sidecarText(identity), identity)).toEqual([]);
  });

  it.each([
    ['another path', { name: 'album/other.bin' }],
    ['another size', { size: identity.size + 1 }],
    ['another sender file id', { senderFileId: 'xyz' }],
  ])('describes nothing for a file with %s', async (_, change) => {
    const text = sidecarText(identity, await digests(1));
    expect(readSidecar(text, { ...identity, ...change })).toBeUndefined();
  });

  it.each([
    ['not JSON', 'part-sidecar\n'],
    [
      'another block size',
      `${sidecarText(identity).replace(`"block":${VERIFY_BLOCK_BYTES}`, '"block":1')}`,
    ],
    ['another version', sidecarText(identity).replace('"v":1', '"v":2')],
    ['a negative size', sidecarText(identity).replace(`"size":${identity.size}`, '"size":-1')],
  ])('describes nothing when its header is %s', (_, text) => {
    expect(readSidecar(text, identity)).toBeUndefined();
  });

  it('ends the list at a line cut short, and never lists more blocks than the file has', async () => {
    const blocks = await digests(5);
    const torn = sidecarText(identity, blocks.slice(0, 2)) + digestLine(blocks[2]).slice(0, 30);
    expect(readSidecar(torn, identity)).toEqual(blocks.slice(0, 2));
    expect(readSidecar(sidecarText(identity, blocks), identity)).toEqual(blocks.slice(0, 3));
  });

  it('is bounded by what the file could need', () => {
    const text = sidecarText(
      identity,
      Array.from({ length: 3 }, () => new Uint8Array(32)),
    );
    expect(text.length).toBeLessThanOrEqual(sidecarMaxBytes(identity));
  });
});
