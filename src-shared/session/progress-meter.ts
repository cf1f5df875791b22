import type { ProgressView } from '../transfer/transfer-view';
import { SECOND_MS } from '../time-units';
import { PROGRESS_INTERVAL_MS, SPEED_WINDOW_MS } from './session-limits';

/** What a session knows at each step; the meter adds speed and time left. */
export type ProgressSample = Omit<ProgressView, 'bytesPerSecond' | 'etaSeconds'>;

/**
 * The one progress meter of every surface: speed is the bytes moved over the last few seconds
 * (a sliding window, so it follows changes without jitter). The ETA is what is left at that
 * speed or at the average since the first sample, whichever is faster: a window that saw a stall
 * near the end (a slower receiver catching up) would otherwise read 1 B/s at 99 % as 33 hours.
 * With no speed measured yet there is no ETA. Output is throttled, except that the first and the
 * last sample of each file always pass so a UI sees every file start and finish.
 */
export class ProgressMeter {
  readonly #now: () => number;
  readonly #publish: (progress: ProgressView) => void;
  readonly #samples: { at: number; bytes: number }[] = [];
  #first: { at: number; bytes: number } | undefined;
  #lastShown = Number.NEGATIVE_INFINITY;
  #fileIndex = 0;

  constructor(now: () => number, publish: (progress: ProgressView) => void) {
    this.#now = now;
    this.#publish = publish;
  }

  record(sample: ProgressSample): void {
    const at = this.#now();
    const samples = this.#samples;
    // Resumed bytes did not travel: the speed counts only what did.
    const travelled = { at, bytes: sample.bytesDone - (sample.resumedBytes ?? 0) };
    samples.push(travelled);
    this.#first ??= travelled;
    while (samples.length > 2 && at - samples[1].at >= SPEED_WINDOW_MS) samples.shift();
    const edge = sample.fileIndex !== this.#fileIndex || sample.fileBytes === sample.fileSize;
    this.#fileIndex = sample.fileIndex;
    if (!edge && at - this.#lastShown < PROGRESS_INTERVAL_MS) return;
    this.#lastShown = at;
    const first = samples[0];
    const elapsed = at - first.at;
    const moved = samples[samples.length - 1].bytes - first.bytes;
    const bytesPerSecond = rate(moved, elapsed);
    const progress: ProgressView = { ...sample, bytesPerSecond };
    const average = rate(travelled.bytes - this.#first.bytes, at - this.#first.at);
    const etaRate = Math.max(bytesPerSecond, average);
    if (etaRate > 0) {
      progress.etaSeconds = Math.max(0, (sample.totalBytes - sample.bytesDone) / etaRate);
    }
    this.#publish(progress);
  }
}

/** Bytes per second; none over no time, and never below zero. */
function rate(bytes: number, ms: number): number {
  return ms > 0 ? Math.max(0, (bytes * SECOND_MS) / ms) : 0;
}
