import { CHUNK_FALLBACK_NATIVE_BYTES, CHUNK_MAX_BYTES } from '../../src-shared/protocol';

/** The negotiated maximum message size capped at 256 KiB; 16 KiB when the connection knows none. */
export function chunkSizeFor(maxMessageSize: number): number {
  return maxMessageSize > 0
    ? Math.min(maxMessageSize, CHUNK_MAX_BYTES)
    : CHUNK_FALLBACK_NATIVE_BYTES;
}
