import type { TimerAction } from '../../../src-shared/protocol/timer-actions';

/** The driver's half of the machines' timers: real timeouts that report back by name. */
export class MachineTimers<T extends string> {
  readonly #running = new Map<T, ReturnType<typeof setTimeout>>();
  readonly #fired: (timer: T) => void;

  constructor(fired: (timer: T) => void) {
    this.#fired = fired;
  }

  apply(action: TimerAction<T>): void {
    this.#stop(action.timer);
    if (action.type === 'clear-timer') return;
    const { timer, ms } = action;
    this.#running.set(
      timer,
      setTimeout(() => {
        this.#running.delete(timer);
        this.#fired(timer);
      }, ms),
    );
  }

  clearAll(): void {
    for (const timer of [...this.#running.keys()]) this.#stop(timer);
  }

  #stop(timer: T): void {
    clearTimeout(this.#running.get(timer));
    this.#running.delete(timer);
  }
}
