import { ERROR_MESSAGES, type ErrorCode, type Failure } from '../protocol/error-codes';
import { errorMessage } from '../format/error-message';

/**
 * A failure outside the protocol machines (signaling, connecting, disk), with its stable code:
 * thrown so the steps of a transfer read in order, and turned into the failed state in one place.
 * The one failure type of every surface (docs/protocol.md, "Errors").
 */
export class SessionFailure extends Error implements Failure {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string = ERROR_MESSAGES[code]) {
    super(message);
    this.name = 'SessionFailure';
    this.code = code;
  }

  static of(failure: Failure): SessionFailure {
    return new SessionFailure(failure.code, failure.message);
  }

  /** `detail` follows the code's standard sentence, so logs and tests can match on its start. */
  static withDetail(code: ErrorCode, detail: string): SessionFailure {
    return new SessionFailure(code, `${ERROR_MESSAGES[code]} (${detail})`);
  }

  get failure(): Failure {
    return { code: this.code, message: this.message };
  }
}

/** Any thrown value as a failure a person can read; unknown errors keep their own message. */
export function toFailure(error: unknown, fallback: ErrorCode): Failure {
  if (error instanceof SessionFailure) return error.failure;
  const detail = errorMessage(error);
  return SessionFailure.withDetail(fallback, detail).failure;
}

/**
 * Waits for `work` unless the person cancels first (then ERR_CANCELLED). What `work` produces
 * after a cancel is handed to `release`, so a socket opened meanwhile is still closed.
 */
export async function unlessCancelled<T>(
  work: Promise<T>,
  cancelled: AbortSignal,
  release: (value: T) => void = () => undefined,
): Promise<T> {
  if (cancelled.aborted) {
    work.then(release, () => undefined);
    throw new SessionFailure('ERR_CANCELLED');
  }
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new SessionFailure('ERR_CANCELLED'));
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
