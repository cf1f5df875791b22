import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkSizeFor, chunksOf, slabRanges } from './chunk-plan';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('the browser sender’s chunk size', () => {
  it('follows the negotiated maximum message size below the cap', () => {
    expect(chunkSizeFor(64 * KiB)).toBe(64 * KiB);
    expect(chunkSizeFor(100_000)).toBe(100_000);
  });

  it('is capped at 256 KiB, against Chromium’s 262144 and the native 1 GiB alike', () => {
    expect(chunkSizeFor(262_144)).toBe(256 * KiB);
    expect(chunkSizeFor(1024 * MiB)).toBe(256 * KiB);
    expect(chunkSizeFor(Number.POSITIVE_INFINITY)).toBe(256 * KiB);
  });

  it('falls back to 64 KiB when the browser reports no maximum', () => {
    for (const none of [null, undefined, 0, Number.NaN, -1])
      expect(chunkSizeFor(none)).toBe(64 * KiB);
  });
});

describe('reading the source in 4 MiB slabs', () => {
  it('covers the range from the ack’s offset to the end exactly once', () => {
    expect(slabRanges(0, 10 * MiB)).toEqual([
      { start: 0, end: 4 * MiB },
      { start: 4 * MiB, end: 8 * MiB },
      { start: 8 * MiB, end: 10 * MiB },
    ]);
    expect(slabRanges(1000, 1000)).toEqual([]);
    fc.assert(
      fc.property(fc.nat(50 * MiB), fc.nat(50 * MiB), (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const ranges = slabRanges(start, end);
        let at = start;
        for (const range of ranges) {
          expect(range.start).toBe(at);
          expect(range.end - range.start).toBeGreaterThan(0);
          expect(range.end - range.start).toBeLessThanOrEqual(4 * MiB);
          at = range.end;
        }
        expect(at).toBe(end);
      }),
    );
  });

  it('sub-slices a slab into chunks that rebuild it byte for byte', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 5000 }),
        fc.integer({ min: 1, max: 700 }),
        (slab, size) => {
          const chunks = chunksOf(slab, size);
          expect(chunks.every((chunk) => chunk.byteLength > 0 && chunk.byteLength <= size)).toBe(
            true,
          );
          expect(chunks.slice(0, -1).every((chunk) => chunk.byteLength === size)).toBe(true);
          const rebuilt = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
          let at = 0;
          for (const chunk of chunks) {
            rebuilt.set(chunk, at);
            at += chunk.byteLength;
          }
          expect(rebuilt).toEqual(slab);
        },
      ),
    );
  });
});
