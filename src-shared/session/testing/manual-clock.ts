import type { Clock, ClockTimer } from '../ports';

/** A clock that moves only when the test says so; timers fire in due order. */
export class ManualClock implements Clock {
  #now = 0;
  #next = 0;
  readonly #timers = new Map<number, { due: number; ms: number; callback: () => void }>();

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    const id = this.#next++;
    this.#timers.set(id, { due: this.#now + ms, ms, callback });
    return {
      cancel: () => void this.#timers.delete(id),
      refresh: () => {
        const timer = this.#timers.get(id) ?? { ms, callback, due: 0 };
        this.#timers.set(id, { ...timer, due: this.#now + ms });
      },
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let soonest: [number, { due: number; callback: () => void }] | undefined;
      for (const entry of this.#timers) {
        if (entry[1].due <= end && (soonest === undefined || entry[1].due < soonest[1].due)) {
          soonest = entry;
        }
      }
      if (soonest === undefined) break;
      this.#timers.delete(soonest[0]);
      this.#now = soonest[1].due;
      soonest[1].callback();
    }
    this.#now = end;
  }
}
