import { BROWSER_SOURCE_SLAB_BYTES } from '../../../src-shared/protocol/limits';

export interface ByteRange {
  start: number;
  end: number;
}

/** The slabs the source is read in: `[start, end)` cut into pieces of at most `slabBytes`. */
export function slabRanges(
  start: number,
  end: number,
  slabBytes = BROWSER_SOURCE_SLAB_BYTES,
): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (let at = start; at < end; at += slabBytes) {
    ranges.push({ start: at, end: Math.min(at + slabBytes, end) });
  }
  return ranges;
}

/** A slab sub-sliced into chunks: views onto the slab, so nothing is copied. */
export function chunksOf(slab: Uint8Array, chunkBytes: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < slab.byteLength; at += chunkBytes) {
    chunks.push(slab.subarray(at, Math.min(at + chunkBytes, slab.byteLength)));
  }
  return chunks;
}
