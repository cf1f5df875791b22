import {
  BROWSER_SOURCE_SLAB_BYTES,
  CHUNK_FALLBACK_BROWSER_BYTES,
  CHUNK_MAX_BYTES,
} from '../../../src-shared/protocol/limits';

/**
 * The chunk size for a connection whose negotiated maximum message size is `maxMessageSize`
 * (`RTCSctpTransport.maxMessageSize`): that size capped at 256 KiB, or 64 KiB when the browser
 * reports none. Infinity, meaning the peer set no limit, gets the cap.
 */
export function chunkSizeFor(maxMessageSize: number | null | undefined): number {
  if (typeof maxMessageSize !== 'number' || Number.isNaN(maxMessageSize) || maxMessageSize <= 0) {
    return CHUNK_FALLBACK_BROWSER_BYTES;
  }
  return Math.floor(Math.min(maxMessageSize, CHUNK_MAX_BYTES));
}

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
