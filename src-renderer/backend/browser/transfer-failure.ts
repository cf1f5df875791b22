import type { ErrorCode, Failure } from '../../../src-shared/protocol/error-codes';

/**
 * A failure before the protocol machines take over (signaling, connecting), thrown so the steps
 * of a transfer read in order and one handler turns it into the failed view.
 */
export class TransferFailure extends Error {
  readonly code: ErrorCode;

  constructor(failure: Failure) {
    super(failure.message);
    this.code = failure.code;
  }

  get failure(): Failure {
    return { code: this.code, message: this.message };
  }
}

/** A failure as the failed view shows it; the code is an `ERR_*` of the protocol or the browser's own. */
export interface ShownFailure {
  code: string;
  message: string;
}

/** Code of a failure inside the browser backend itself, which no protocol rule covers. */
export const ERR_BROWSER = 'ERR_BROWSER';

export function unexpectedFailure(error: unknown): ShownFailure {
  console.error('Ferry hit an unexpected error', error);
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: ERR_BROWSER,
    message: `something unexpected went wrong in this browser (${detail})`,
  };
}
