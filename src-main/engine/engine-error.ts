import { ERROR_MESSAGES, type ErrorCode, type Failure } from '../../src-shared/protocol';

/** A failure outside the protocol machines (signaling, connection, disk), with its stable code. */
export class EngineError extends Error implements Failure {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string = ERROR_MESSAGES[code]) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }

  /** `detail` follows the code's standard sentence, so logs and tests can match on its start. */
  static withDetail(code: ErrorCode, detail: string): EngineError {
    return new EngineError(code, `${ERROR_MESSAGES[code]} (${detail})`);
  }
}

/** Any thrown value as a failure a person can read; unknown errors keep their own message. */
export function toFailure(error: unknown, fallback: ErrorCode): Failure {
  if (error instanceof EngineError) return { code: error.code, message: error.message };
  const detail = error instanceof Error ? error.message : String(error);
  return EngineError.withDetail(fallback, detail);
}
