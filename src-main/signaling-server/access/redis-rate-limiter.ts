import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { REDIS_KEYS } from '../cluster/redis-keys';
import { FlexibleFailureBudget, type FailureBudget } from './failure-budget';
import { FlexibleRateLimiter, windowOptions, type RateLimiter } from './rate-limiter';

// Counted as a lone server counts in memory. While Redis is away each server counts on its own
// in memory instead of letting everything through.
function redisCounter(
  client: Redis,
  name: string,
  limit: number,
  windowMs: number,
): RateLimiterRedis {
  const window = windowOptions(name, limit, windowMs);
  return new RateLimiterRedis({
    ...window,
    storeClient: client,
    keyPrefix: REDIS_KEYS.rate + name,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(window),
  });
}

/** The limiter of a cluster: one counter per client in Redis for all servers. */
export function redisRateLimiter(
  client: Redis,
  name: string,
  limit: number,
  windowMs: number,
): RateLimiter {
  return new FlexibleRateLimiter(redisCounter(client, name, limit, windowMs));
}

/** The failure budget of a cluster: one counter in Redis that every server spends from. */
export function redisFailureBudget(
  client: Redis,
  name: string,
  limit: number,
  windowMs: number,
): FailureBudget {
  return new FlexibleFailureBudget(redisCounter(client, name, limit, windowMs), limit);
}
