import type { TimerAction } from '../../src-shared/protocol';

/**
 * The timers a protocol machine asks for, run on Node's clock. Durations come from the machine
 * unless the engine's options override them by timer name.
 */
export class DriverTimers<T extends string> {
  readonly #running = new Map<T, { timeout: NodeJS.Timeout; ms: number }>();
  readonly #overrides: Partial<Record<T, number>>;
  readonly #onFire: (timer: T) => void;

  constructor(overrides: Partial<Record<T, number>>, onFire: (timer: T) => void) {
    this.#overrides = overrides;
    this.#onFire = onFire;
  }

  apply(action: TimerAction<T>): void {
    const running = this.#running.get(action.timer);
    const ms = action.type === 'set-timer' ? (this.#overrides[action.timer] ?? action.ms) : 0;
    // The no-progress timer is set again for every chunk: re-arming the running one is cheaper.
    if (action.type === 'set-timer' && running?.ms === ms) {
      running.timeout.refresh();
      return;
    }
    clearTimeout(running?.timeout);
    this.#running.delete(action.timer);
    if (action.type === 'clear-timer') return;
    const timeout = setTimeout(() => {
      this.#running.delete(action.timer);
      this.#onFire(action.timer);
    }, ms);
    this.#running.set(action.timer, { timeout, ms });
  }

  isRunning(timer: T): boolean {
    return this.#running.has(timer);
  }

  clearAll(): void {
    for (const { timeout } of this.#running.values()) clearTimeout(timeout);
    this.#running.clear();
  }
}
