import { describe, expect, it } from 'vitest';
import { PROGRESS_INTERVAL_MS, ProgressMeter, SPEED_WINDOW_MS } from './progress-meter';

function clock(): { now: () => number; advance(ms: number): void } {
  let time = 0;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('progress speed and time left', () => {
  it('knows no speed from a single sample', () => {
    const time = clock();
    const meter = new ProgressMeter(time.now);
    meter.record(1000);
    expect(meter.speed(1000, 10_000)).toEqual({ bytesPerSecond: 0 });
  });

  it('measures bytes per second and the time the rest will take', () => {
    const time = clock();
    const meter = new ProgressMeter(time.now);
    meter.record(0);
    time.advance(1000);
    meter.record(2_000_000);
    expect(meter.speed(2_000_000, 10_000_000)).toEqual({
      bytesPerSecond: 2_000_000,
      etaSeconds: 4,
    });
  });

  it('forgets samples older than its window, so a slowdown shows', () => {
    const time = clock();
    const meter = new ProgressMeter(time.now);
    meter.record(0);
    time.advance(1000);
    meter.record(10_000_000);
    for (let second = 0; second < 2 * (SPEED_WINDOW_MS / 1000); second += 1) {
      time.advance(1000);
      meter.record(10_000_000 + (second + 1) * 1000);
    }
    expect(meter.speed(10_006_000, 20_000_000).bytesPerSecond).toBeCloseTo(1000, 0);
  });

  it('asks for a redraw at most every few hundred milliseconds', () => {
    const time = clock();
    const meter = new ProgressMeter(time.now);
    expect(meter.record(1)).toBe(true);
    time.advance(PROGRESS_INTERVAL_MS / 2);
    expect(meter.record(2)).toBe(false);
    time.advance(PROGRESS_INTERVAL_MS / 2);
    expect(meter.record(3)).toBe(true);
  });
});
