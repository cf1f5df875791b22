import { onTestFinished, vi } from 'vitest';
import type { Clock, Every } from '../schedule';

/** A clock that moves only when told to. */
export class ManualClock {
  private current: number;

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  readonly now: Clock = () => this.current;

  advance(ms: number): void {
    this.current += ms;
  }
}

/** Periodic tasks that run only when a test fires them. */
export class ManualTimers {
  private readonly tasks = new Map<number, Set<() => void>>();

  readonly every: Every = (intervalMs, task) => {
    const tasks = this.tasks.get(intervalMs) ?? new Set();
    tasks.add(task);
    this.tasks.set(intervalMs, tasks);
    return () => tasks.delete(task);
  };

  /** Runs every task registered with this interval, then lets their promises settle. */
  async fire(intervalMs: number): Promise<void> {
    for (const task of this.tasks.get(intervalMs) ?? []) task();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Moves the frozen wall clock of `manualWallClock`. */
export interface ManualWallClock {
  advance(ms: number): void;
}

/**
 * Freezes `Date` for the rest of the test and moves it only when told to, for code that reads
 * the wall clock itself (rate-limiter-flexible). Timers and sockets keep running in real time.
 */
export function manualWallClock(): ManualWallClock {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return { advance: (ms) => vi.setSystemTime(Date.now() + ms) };
}
