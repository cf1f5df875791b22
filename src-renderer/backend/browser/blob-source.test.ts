import { describe, expect, it } from 'vitest';
import { BROWSER_SOURCE_SLAB_BYTES, VERIFY_BLOCK_BYTES } from '../../../src-shared/protocol/limits';
import type { SourceReader } from '../../../src-shared/session/file-source';
import { blobFileSource, type ByteSource } from './blob-source';

/** jsdom's Blob cannot read itself back, so the file is a byte array behind the same shape. */
function bytesSource(bytes: Uint8Array): ByteSource & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    size: bytes.byteLength,
    reads,
    slice: (start, end) => ({
      arrayBuffer: async () => {
        reads.push([start, end]);
        return bytes.slice(start, end).buffer as ArrayBuffer;
      },
    }),
  };
}

async function readAll(reader: SourceReader): Promise<{ bytes: number[]; chunks: number[] }> {
  const bytes: number[] = [];
  const chunks: number[] = [];
  while (!reader.done) {
    const read = await reader.next();
    if (read.kind !== 'bytes') throw new Error(read.detail);
    bytes.push(...read.bytes.slice(0, 4));
    chunks.push(read.bytes.byteLength);
  }
  return { bytes, chunks };
}

const SIZE = BROWSER_SOURCE_SLAB_BYTES + VERIFY_BLOCK_BYTES + 1000;
const content = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7 + (i >> 20)) & 0xff);

async function open(source: ByteSource, offset: number, chunkBytes: number): Promise<SourceReader> {
  const reader = await blobFileSource('big.bin', source).open(offset, chunkBytes);
  if ('kind' in reader) throw new Error(reader.detail);
  return reader;
}

describe('a picked file read from an offset (a resume, a prefix check)', () => {
  it('reads from a block boundary to the end, never before it', async () => {
    const source = bytesSource(content);
    const offset = 2 * VERIFY_BLOCK_BYTES;
    const { chunks } = await readAll(await open(source, offset, 256 * 1024));
    expect(chunks.reduce((sum, chunk) => sum + chunk, 0)).toBe(SIZE - offset);
    expect(Math.min(...source.reads.map(([start]) => start))).toBe(offset);
    expect(source.reads.at(-1)?.[1]).toBe(SIZE);
  });

  it('gives the bytes that are at the offset', async () => {
    const offset = VERIFY_BLOCK_BYTES;
    const reader = await open(bytesSource(content), offset, 1024);
    const first = await reader.next();
    expect(first.kind === 'bytes' && Array.from(first.bytes)).toEqual(
      Array.from(content.subarray(offset, offset + 1024)),
    );
  });

  it('reads whole 4 MiB blocks from 0 for a prefix check', async () => {
    const { chunks } = await readAll(await open(bytesSource(content), 0, VERIFY_BLOCK_BYTES));
    expect(chunks.slice(0, -1).every((chunk) => chunk === VERIFY_BLOCK_BYTES)).toBe(true);
    expect(chunks.reduce((sum, chunk) => sum + chunk, 0)).toBe(SIZE);
  });

  it('is done at once when opened at its size: a file already there sends no byte', async () => {
    const source = bytesSource(content);
    const reader = await open(source, SIZE, 1024);
    expect(reader.done).toBe(true);
    expect(source.reads).toEqual([]);
  });
});
