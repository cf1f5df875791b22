import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { REDIS_KEYS } from '../cluster/redis-keys';
import type { RateLimiter } from './rate-limiter';

/**
 * The limiter of a cluster, on rate-limiter-flexible: one counter per IP in Redis for all servers,
 * a fixed window opened by the first attempt as in memory. While Redis is away each server counts
 * on its own in memory instead of letting everything through.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(client: Redis, name: string, limit: number, windowMs: number) {
    const window = { points: limit, duration: windowMs / 1000 };
    this.limiter = new RateLimiterRedis({
      ...window,
      storeClient: client,
      keyPrefix: REDIS_KEYS.rate + name,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ ...window, keyPrefix: name }),
    });
  }

  async hit(key: string): Promise<boolean> {
    try {
      await this.limiter.consume(key);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }

  // Redis expires each counter with its window, and the in-memory stand-in expires its own.
  async sweep(): Promise<void> {}
}
