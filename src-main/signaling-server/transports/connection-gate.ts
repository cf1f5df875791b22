import type { IncomingMessage } from 'node:http';
import { clientLimitKey } from '../access/client-ip';
import type { OriginPolicy } from '../access/origin-policy';
import type { RateLimiter } from '../access/rate-limiter';

/**
 * What both socket transports check before a peer may talk: the origin of the handshake (the
 * CORS allow-list, as for HTTP) and the per-IP connection rate, one counter for both transports.
 */
export class ConnectionGate {
  constructor(
    private readonly origins: OriginPolicy,
    private readonly connections: RateLimiter,
    private readonly trustedProxyCount: number,
  ) {}

  originAllowed(request: IncomingMessage): boolean {
    return this.origins.allows(request.headers.origin, request.headers.host);
  }

  /** For CORS headers, where only the origin is known: a page on this server's own origin needs none. */
  originListed(origin: string | undefined): boolean {
    return this.origins.allows(origin);
  }

  /** Counts the connection; false when the client is over its rate. */
  admit(request: IncomingMessage): Promise<boolean> {
    const key = clientLimitKey(
      request.socket.remoteAddress,
      request.headers['x-forwarded-for'],
      this.trustedProxyCount,
    );
    return this.connections.hit(key);
  }
}
