/**
 * Counts attempts per key (a client IP) in fixed windows. Asynchronous so that a shared store can
 * stand behind it when several servers share one set of limits.
 */
export interface RateLimiter {
  /** Counts one attempt and tells whether it is within the limit. */
  hit(key: string): Promise<boolean>;
  /** Drops the counters of lapsed windows. */
  sweep(): Promise<void>;
}
