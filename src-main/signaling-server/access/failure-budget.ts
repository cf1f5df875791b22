import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { windowOptions } from './rate-limiter';

/**
 * A number of failures that every client together may cause per window, however many addresses
 * they come from. Asynchronous so that a cluster can share one budget through Redis.
 */
export interface FailureBudget {
  /** How long until the budget refills, in ms, when it is spent; undefined while some is left. */
  spentFor(): Promise<number | undefined>;
  /** Counts one failure against the budget. */
  spend(): Promise<void>;
}

// One counter for everyone: the budget is global, not per client.
const BUDGET_KEY = 'all';

/** A rate-limiter-flexible counter under a single key as a FailureBudget. */
export class FlexibleFailureBudget implements FailureBudget {
  constructor(
    private readonly counter: RateLimiterAbstract,
    private readonly limit: number,
  ) {}

  async spentFor(): Promise<number | undefined> {
    const state = await this.counter.get(BUDGET_KEY);
    // The memory store answers a lapsed window until its timer drops it; lapsed is not spent.
    const spent = state !== null && state.consumedPoints >= this.limit && state.msBeforeNext > 0;
    return spent ? state.msBeforeNext : undefined;
  }

  async spend(): Promise<void> {
    try {
      await this.counter.consume(BUDGET_KEY);
    } catch (rejection) {
      // A failure past a spent budget changes nothing: the window stays closed until it ends.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    }
  }
}

/** The budget of a server on its own, `limit` failures per window opened by the first failure. */
export function inMemoryFailureBudget(
  name: string,
  limit: number,
  windowMs: number,
): FailureBudget {
  return new FlexibleFailureBudget(
    new RateLimiterMemory(windowOptions(name, limit, windowMs)),
    limit,
  );
}
