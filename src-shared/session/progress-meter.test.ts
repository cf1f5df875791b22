import { describe, expect, it } from 'vitest';
import type { ProgressView } from '../transfer/transfer-view';
import { ProgressMeter, type ProgressSample } from './progress-meter';
import { PROGRESS_INTERVAL_MS, SPEED_WINDOW_MS } from './session-limits';

function meter() {
  let time = 0;
  const shown: ProgressView[] = [];
  const progress = new ProgressMeter(
    () => time,
    (view) => shown.push(view),
  );
  const sample = (bytesDone: number, totalBytes = 100_000_000): ProgressSample => ({
    fileIndex: 1,
    fileCount: 1,
    fileName: 'a.bin',
    fileBytes: bytesDone,
    fileSize: totalBytes,
    bytesDone,
    totalBytes,
  });
  return {
    shown,
    record: (bytesDone: number, totalBytes?: number) =>
      progress.record(sample(bytesDone, totalBytes)),
    advance: (ms: number) => (time += ms),
  };
}

describe('the one progress meter of every surface', () => {
  it('knows no speed and no time left from a single sample', () => {
    const { shown, record } = meter();
    record(1000);
    expect(shown.at(-1)).toMatchObject({ bytesPerSecond: 0 });
    expect(shown.at(-1)).not.toHaveProperty('etaSeconds');
  });

  it('measures bytes per second and the time the rest will take', () => {
    const { shown, record, advance } = meter();
    record(0, 10_000_000);
    advance(1000);
    record(2_000_000, 10_000_000);
    expect(shown.at(-1)).toMatchObject({ bytesPerSecond: 2_000_000, etaSeconds: 4 });
  });

  it('forgets samples older than its window, so a slowdown shows', () => {
    const { shown, record, advance } = meter();
    record(0);
    advance(1000);
    record(10_000_000);
    for (let second = 0; second < 2 * (SPEED_WINDOW_MS / 1000); second += 1) {
      advance(1000);
      record(10_000_000 + (second + 1) * 1000);
    }
    expect(shown.at(-1)?.bytesPerSecond).toBeCloseTo(1000, 0);
  });

  it('redraws at most every few hundred milliseconds, but always shows a file finishing', () => {
    const { shown, record, advance } = meter();
    record(1);
    advance(PROGRESS_INTERVAL_MS / 2);
    record(2);
    expect(shown).toHaveLength(1);
    advance(PROGRESS_INTERVAL_MS / 2);
    record(3);
    expect(shown).toHaveLength(2);
    record(100_000_000);
    expect(shown).toHaveLength(3);
  });
});

describe('the time left, as both screens show it', () => {
  it('is never 33 h at 99 %: a stall near the end is weighed against the average so far', () => {
    const { shown, record, advance } = meter();
    const total = 14_400_000;
    record(0, total);
    // 14.3 MB over 30 s, then a slower receiver catches up: the window sees 1 B/s.
    advance(30_000);
    record(14_300_000, total);
    for (let second = 1; second <= 2 * (SPEED_WINDOW_MS / 1000); second += 1) {
      advance(1000);
      record(14_300_000 + second, total);
    }
    const last = shown.at(-1);
    expect(last?.bytesPerSecond).toBeCloseTo(1, 0);
    // 100 kB left at the batch's average of about 0.4 MB/s: well under a second, not 27 hours.
    expect(last?.etaSeconds).toBeLessThan(1);
  });

  it('is not shown while no speed is known', () => {
    const { shown, record, advance } = meter();
    record(0);
    advance(1000);
    record(0);
    expect(shown.at(-1)).toMatchObject({ bytesPerSecond: 0 });
    expect(shown.at(-1)).not.toHaveProperty('etaSeconds');
  });
});
