/** Timers belong to the driver: a machine asks for them by name and hears back `timer-fired`. */
export type TimerAction<T extends string> =
  { type: 'set-timer'; timer: T; ms: number } | { type: 'clear-timer'; timer: T };

/**
 * The timers a machine has asked for and not yet cleared or heard fire. It lets a machine drop a
 * stale `timer-fired` and clear exactly what is armed when the transfer ends.
 */
export class ArmedTimers<T extends string> {
  readonly #armed = new Set<T>();

  set(timer: T, ms: number): TimerAction<T> {
    this.#armed.add(timer);
    return { type: 'set-timer', timer, ms };
  }

  clear(timer: T): TimerAction<T>[] {
    return this.#armed.delete(timer) ? [{ type: 'clear-timer', timer }] : [];
  }

  clearAll(): TimerAction<T>[] {
    const cleared = [...this.#armed].map((timer): TimerAction<T> => ({
      type: 'clear-timer',
      timer,
    }));
    this.#armed.clear();
    return cleared;
  }

  /** True when the timer was armed, in which case it no longer is. */
  fired(timer: T): boolean {
    return this.#armed.delete(timer);
  }
}
