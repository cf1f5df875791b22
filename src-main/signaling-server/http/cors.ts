import type { RequestHandler } from 'express';
import type { OriginPolicy } from '../access/origin-policy';

const ALLOWED_METHODS = 'GET,HEAD,POST,OPTIONS';
const PREFLIGHT_MAX_AGE_S = '600';

/**
 * CORS for the allow-list. A rejected origin is thrown, so the final handler answers
 * 500 `Internal server error` as the spec requires, and the browser reports a CORS failure.
 */
export function cors(origins: OriginPolicy): RequestHandler {
  return (request, response, next) => {
    const origin = request.headers.origin;
    if (origin === undefined) {
      next();
      return;
    }
    if (!origins.allows(origin, request.headers.host)) {
      next(new Error(`Origin ${origin} is not allowed by CORS`));
      return;
    }
    response.setHeader('Access-Control-Allow-Origin', origin);
    response.vary('Origin');
    if (request.method !== 'OPTIONS') {
      next();
      return;
    }
    response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    const requested = request.headers['access-control-request-headers'];
    if (requested !== undefined) {
      response.setHeader('Access-Control-Allow-Headers', requested);
      response.vary('Access-Control-Request-Headers');
    }
    response.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_S);
    response.status(204).end();
  };
}
