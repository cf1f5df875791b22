import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunksOf, slabRanges } from './chunk-plan';

const KiB = 1024;
const MiB = 1024 * KiB;

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
