import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { REDIS_KEYS } from '../cluster/redis-keys';
import { FlexibleRateLimiter, windowOptions, type RateLimiter } from './rate-limiter';

/**
 * The limiter of a cluster: one counter per IP in Redis for all servers, counted as a lone
 * server counts in memory. While Redis is away each server counts on its own in memory instead
 * of letting everything through.
 */
export function redisRateLimiter(
  client: Redis,
  name: string,
  limit: number,
  windowMs: number,
): RateLimiter {
  const window = windowOptions(name, limit, windowMs);
  return new FlexibleRateLimiter(
    new RateLimiterRedis({
      ...window,
      storeClient: client,
      keyPrefix: REDIS_KEYS.rate + name,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(window),
    }),
  );
}
