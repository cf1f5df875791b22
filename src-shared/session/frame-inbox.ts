import type { Frame } from '../protocol/frame';

/**
 * Keeps the frames a channel receives before the session core listens: a peer may send its first
 * metadata the instant its channel opens, before this side has finished connecting. Held frames
 * are handed over on the microtask after the first listener arrives, so the session sees its own
 * start (`channel-open`) first, and in arrival order with anything newer.
 */
export class FrameInbox {
  readonly #held: Frame[] = [];
  readonly #listeners = new Set<(frame: Frame) => void>();

  deliver(frame: Frame): void {
    if (this.#listeners.size === 0 || this.#held.length > 0) this.#held.push(frame);
    else for (const listener of this.#listeners) listener(frame);
  }

  listen(listener: (frame: Frame) => void): () => void {
    this.#listeners.add(listener);
    if (this.#held.length > 0) void Promise.resolve().then(() => this.#flush());
    return () => this.#listeners.delete(listener);
  }

  #flush(): void {
    while (this.#held.length > 0 && this.#listeners.size > 0) {
      const frame = this.#held.shift();
      if (frame === undefined) return;
      for (const listener of this.#listeners) listener(frame);
    }
  }
}
