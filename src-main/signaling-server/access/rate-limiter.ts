import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Counts attempts per key (a client IP) in fixed windows, each opened by the key's first attempt.
 * Asynchronous so that a shared store can stand behind it when several servers share one set of
 * limits.
 */
export interface RateLimiter {
  /** Counts one attempt and tells whether it is within the limit. */
  hit(key: string): Promise<boolean>;
}

/** How one limit counts, the same for a lone server and for a cluster. */
export function windowOptions(
  name: string,
  limit: number,
  windowMs: number,
): { points: number; duration: number; keyPrefix: string } {
  return { points: limit, duration: windowMs / 1000, keyPrefix: name };
}

/** A rate-limiter-flexible limiter as a RateLimiter: a refusal is an answer, not a failure. */
export class FlexibleRateLimiter implements RateLimiter {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async hit(key: string): Promise<boolean> {
    try {
      await this.limiter.consume(key);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }
}

/**
 * The limiter of a server on its own. Each counter is dropped when its window ends, so the
 * memory held is one counter per client seen in the last window.
 */
export function inMemoryRateLimiter(name: string, limit: number, windowMs: number): RateLimiter {
  return new FlexibleRateLimiter(new RateLimiterMemory(windowOptions(name, limit, windowMs)));
}
