import { EngineError } from './engine-error';

/**
 * Waits for `work` unless the person cancels first. What `work` produces after a cancel is
 * handed to `release`, so a socket opened meanwhile is still closed.
 */
export async function unlessCancelled<T>(
  work: Promise<T>,
  cancelled: AbortSignal,
  release: (value: T) => void = () => undefined,
): Promise<T> {
  if (cancelled.aborted) {
    work.then(release, () => undefined);
    throw new EngineError('ERR_CANCELLED');
  }
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new EngineError('ERR_CANCELLED'));
    cancelled.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } catch (error) {
    if (cancelled.aborted) work.then(release, () => undefined);
    throw error;
  } finally {
    cancelled.removeEventListener('abort', onAbort);
  }
}
