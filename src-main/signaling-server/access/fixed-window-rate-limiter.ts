import type { Clock } from '../schedule';
import type { RateLimiter } from './rate-limiter';

interface Window {
  startedAt: number;
  count: number;
}

/** The in-memory limiter: each key gets `limit` attempts in a window opened by its first attempt. */
export class FixedWindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: Clock,
  ) {}

  async hit(key: string): Promise<boolean> {
    const now = this.now();
    const window = this.windows.get(key);
    if (window === undefined || now - window.startedAt >= this.windowMs) {
      this.windows.set(key, { startedAt: now, count: 1 });
      return 1 <= this.limit;
    }
    window.count += 1;
    return window.count <= this.limit;
  }

  async sweep(): Promise<void> {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
    }
  }

  /** Keys with a counter in memory, lapsed or not. */
  get size(): number {
    return this.windows.size;
  }
}
