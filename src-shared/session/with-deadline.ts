import type { Clock } from './ports';

/**
 * What `promise` settles to, or a rejection with `what` once `ms` have passed on `clock` without
 * it; a rejection is always an Error. The wait is the caller's rule, so it runs on the core's
 * clock, never on an adapter's own timer (docs/architecture.md, "What an adapter may do").
 */
export function withDeadline<T>(
  clock: Clock,
  promise: Promise<T>,
  ms: number,
  what = 'timed out',
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(what)), ms);
    promise.then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (error: unknown) => {
        timer.cancel();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
