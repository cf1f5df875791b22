import type { ErrorRequestHandler } from 'express';
import { HTTP_ERROR } from '../../../src-shared/signaling/http-api';
import type { LogSink } from '../log-sink';

function statusOf(error: unknown): number {
  if (typeof error === 'object' && error !== null) {
    const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
    const candidate = typeof status === 'number' ? status : statusCode;
    if (
      typeof candidate === 'number' &&
      Number.isInteger(candidate) &&
      candidate >= 400 &&
      candidate <= 599
    ) {
      return candidate;
    }
  }
  return 500;
}

/**
 * Collapses every thrown error to `Bad request` (status below 500) or `Internal server error`,
 * keeping its status; the details go to the server's own log only, in every NODE_ENV.
 */
export function finalErrorHandler(log: LogSink): ErrorRequestHandler {
  return (error: unknown, request, response, next) => {
    const status = statusOf(error);
    const detail =
      error instanceof Error ? (status >= 500 ? error.stack : error.message) : String(error);
    log.error(`${request.method} ${request.originalUrl} -> ${status}: ${detail}`);
    if (response.headersSent) {
      next(error);
      return;
    }
    response
      .status(status)
      .json({ error: status >= 500 ? HTTP_ERROR.internal : HTTP_ERROR.badRequest });
  };
}
