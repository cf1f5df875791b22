import type { TimerAction } from '../../src-shared/protocol';

/**
 * The timers a protocol machine asks for, run on Node's clock. Durations come from the machine
 * unless the engine's options override them by timer name.
 */
export class DriverTimers<T extends string> {
  readonly #running = new Map<T, NodeJS.Timeout>();
  readonly #overrides: Partial<Record<T, number>>;
  readonly #onFire: (timer: T) => void;

  constructor(overrides: Partial<Record<T, number>>, onFire: (timer: T) => void) {
    this.#overrides = overrides;
    this.#onFire = onFire;
  }

  apply(action: TimerAction<T>): void {
    clearTimeout(this.#running.get(action.timer));
    this.#running.delete(action.timer);
    if (action.type === 'clear-timer') return;
    const ms = this.#overrides[action.timer] ?? action.ms;
    this.#running.set(
      action.timer,
      setTimeout(() => {
        this.#running.delete(action.timer);
        this.#onFire(action.timer);
      }, ms),
    );
  }

  isRunning(timer: T): boolean {
    return this.#running.has(timer);
  }

  clearAll(): void {
    for (const timeout of this.#running.values()) clearTimeout(timeout);
    this.#running.clear();
  }
}
