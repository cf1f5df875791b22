/**
 * What `promise` settles to, or a rejection once `ms` have passed without it; a rejection is
 * always an Error.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what = 'timed out'): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(what)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
