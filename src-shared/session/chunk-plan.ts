import {
  CHUNK_FALLBACK_BROWSER_BYTES,
  CHUNK_FALLBACK_NATIVE_BYTES,
  CHUNK_MAX_BYTES,
} from '../protocol/limits';
import type { Surface } from '../protocol/frame-classification';

/**
 * The chunk size for a connection whose negotiated maximum message size is `maxMessageSize`:
 * that size capped at 256 KiB, or the surface's fallback (16 KiB native, 64 KiB browser) when the
 * connection reports none (docs/protocol.md, "Chunk sizing"). Infinity, a peer with no limit, gets the cap.
 */
export function chunkSizeFor(maxMessageSize: number, surface: Surface): number {
  if (!(maxMessageSize > 0)) {
    return surface === 'native' ? CHUNK_FALLBACK_NATIVE_BYTES : CHUNK_FALLBACK_BROWSER_BYTES;
  }
  return Math.floor(Math.min(maxMessageSize, CHUNK_MAX_BYTES));
}
