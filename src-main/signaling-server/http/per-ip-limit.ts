import type { Request, RequestHandler } from 'express';
import type { RateLimiter } from '../access/rate-limiter';

/** Answers 429 with `{ error }` once the client (by its limit key) is over `limiter`'s rate. */
export function perIpLimit(
  limiter: RateLimiter,
  keyOf: (request: Request) => string,
  error: string,
): RequestHandler {
  return async (request, response, next) => {
    if (await limiter.hit(keyOf(request))) next();
    else response.status(429).json({ error });
  };
}
