import { describe, expect, it } from 'vitest';
import { chunkSizeFor } from './chunk-plan';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('the chunk size (docs/protocol.md, "Chunk sizing")', () => {
  it('follows the negotiated maximum message size below the cap', () => {
    expect(chunkSizeFor(64 * KiB, 'browser')).toBe(64 * KiB);
    expect(chunkSizeFor(100_000, 'native')).toBe(100_000);
  });

  it('is capped at 256 KiB, against Chromium’s 262144 and the native 1 GiB alike', () => {
    expect(chunkSizeFor(262_144, 'browser')).toBe(256 * KiB);
    expect(chunkSizeFor(1024 * MiB, 'native')).toBe(256 * KiB);
    expect(chunkSizeFor(Number.POSITIVE_INFINITY, 'browser')).toBe(256 * KiB);
  });

  it('falls back to 16 KiB native and 64 KiB browser when the connection reports no maximum', () => {
    for (const none of [0, Number.NaN, -1]) {
      expect(chunkSizeFor(none, 'native')).toBe(16 * KiB);
      expect(chunkSizeFor(none, 'browser')).toBe(64 * KiB);
    }
  });
});
