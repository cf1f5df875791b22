import type { ProgressView } from '../../src-shared/transfer/transfer-view';

/** How often progress reaches the owner: often enough for a smooth bar, rarely enough for IPC. */
export const PROGRESS_INTERVAL_MS = 250;

/** Weight of the newest interval in the smoothed speed. */
const SPEED_SMOOTHING = 0.3;

/** What a session knows at each write; the meter adds speed and time left. */
export type ProgressSample = Omit<ProgressView, 'bytesPerSecond' | 'etaSeconds'>;

/**
 * Turns a stream of byte counts into throttled progress with a smoothed speed and an ETA. The
 * first and last sample of each file always pass, so a UI sees every file start and finish.
 */
export class ProgressMeter {
  readonly #publish: (progress: ProgressView) => void;
  #lastAt = 0;
  #lastBytes = 0;
  #speed: number | undefined;
  #fileIndex = 0;

  constructor(publish: (progress: ProgressView) => void) {
    this.#publish = publish;
  }

  record(sample: ProgressSample): void {
    const now = performance.now();
    const edge = sample.fileIndex !== this.#fileIndex || sample.fileBytes === sample.fileSize;
    this.#fileIndex = sample.fileIndex;
    if (this.#lastAt === 0) {
      this.#lastAt = now;
      this.#lastBytes = sample.bytesDone;
    } else if (now - this.#lastAt >= PROGRESS_INTERVAL_MS) {
      const rate = ((sample.bytesDone - this.#lastBytes) * 1000) / (now - this.#lastAt);
      this.#speed =
        this.#speed === undefined ? rate : this.#speed + SPEED_SMOOTHING * (rate - this.#speed);
      this.#lastAt = now;
      this.#lastBytes = sample.bytesDone;
    } else if (!edge) {
      return;
    }
    const speed = this.#speed ?? 0;
    const progress: ProgressView = { ...sample, bytesPerSecond: speed };
    if (speed > 0) progress.etaSeconds = (sample.totalBytes - sample.bytesDone) / speed;
    this.#publish(progress);
  }
}
