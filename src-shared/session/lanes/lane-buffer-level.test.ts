import { describe, expect, it } from 'vitest';
import { SEND_BUFFER_HIGH_WATER_BYTES, SEND_BUFFER_LOW_WATER_BYTES } from '../../protocol/limits';
import { laneBufferLevel } from './lane-buffer-level';

const MiB = 1024 * 1024;

describe("the send buffer a striping sender's session sees", () => {
  it('stays under the high water while lanes with little queued need more, though the fast lanes together pass it', () => {
    // Twelve lanes: the fast ones hold their 300 ms' worth, three have almost nothing left.
    const queued = [...Array<number>(9).fill(1.5 * MiB), 0, 64 * 1024, 0];
    expect(queued.reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(
      SEND_BUFFER_HIGH_WATER_BYTES,
    );

    expect(laneBufferLevel(queued)).toBeLessThan(SEND_BUFFER_LOW_WATER_BYTES);
  });

  it('reads empty only when every lane is', () => {
    expect(laneBufferLevel([0, 0, 0])).toBe(0);
    expect(laneBufferLevel([0, 1, 0])).toBeGreaterThan(0);
  });
});
