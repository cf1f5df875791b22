/** Speed is measured over the last few seconds, so it follows changes without jittering. */
export const SPEED_WINDOW_MS = 3000;

/** A transfer's screen is redrawn at most this often while bytes flow. */
export const PROGRESS_INTERVAL_MS = 200;

export interface Speed {
  bytesPerSecond: number;
  /** Undefined until a speed is known. */
  etaSeconds?: number;
}

/** Turns a running byte count into speed and time left, from samples over a sliding window. */
export class ProgressMeter {
  readonly #now: () => number;
  readonly #samples: { at: number; bytes: number }[] = [];
  #lastShown = Number.NEGATIVE_INFINITY;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Records `bytesDone`; true when enough time has passed to show it. */
  record(bytesDone: number): boolean {
    const at = this.#now();
    this.#samples.push({ at, bytes: bytesDone });
    while (this.#samples.length > 2 && at - this.#samples[1].at >= SPEED_WINDOW_MS) {
      this.#samples.shift();
    }
    if (at - this.#lastShown < PROGRESS_INTERVAL_MS) return false;
    this.#lastShown = at;
    return true;
  }

  speed(bytesDone: number, totalBytes: number): Speed {
    const first = this.#samples[0];
    const last = this.#samples[this.#samples.length - 1];
    if (first === undefined || last === undefined || last.at <= first.at)
      return { bytesPerSecond: 0 };
    const bytesPerSecond = Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
    if (bytesPerSecond === 0) return { bytesPerSecond };
    return {
      bytesPerSecond,
      etaSeconds: Math.max(0, (totalBytes - bytesDone) / bytesPerSecond),
    };
  }
}
