import type { TimerAction } from '../protocol/timer-actions';
import type { Clock, ClockTimer } from './ports';

/**
 * The timers a protocol machine asks for, run on the injected clock. Durations come from the
 * machine unless the caller overrides them by timer name (tests shorten them).
 */
export class SessionTimers<T extends string> {
  readonly #clock: Clock;
  readonly #running = new Map<T, { timer: ClockTimer; ms: number }>();
  readonly #overrides: Partial<Record<T, number>>;
  readonly #onFire: (timer: T) => void;

  constructor(clock: Clock, overrides: Partial<Record<T, number>>, onFire: (timer: T) => void) {
    this.#clock = clock;
    this.#overrides = overrides;
    this.#onFire = onFire;
  }

  apply(action: TimerAction<T>): void {
    const running = this.#running.get(action.timer);
    const ms = action.type === 'set-timer' ? (this.#overrides[action.timer] ?? action.ms) : 0;
    // The no-progress timer is set again for every chunk: re-arming the running one is cheaper.
    if (action.type === 'set-timer' && running?.ms === ms) {
      running.timer.refresh();
      return;
    }
    running?.timer.cancel();
    this.#running.delete(action.timer);
    if (action.type === 'clear-timer') return;
    const timer = this.#clock.setTimeout(() => {
      this.#running.delete(action.timer);
      this.#onFire(action.timer);
    }, ms);
    this.#running.set(action.timer, { timer, ms });
  }

  isRunning(timer: T): boolean {
    return this.#running.has(timer);
  }

  clearAll(): void {
    for (const { timer } of this.#running.values()) timer.cancel();
    this.#running.clear();
  }
}
