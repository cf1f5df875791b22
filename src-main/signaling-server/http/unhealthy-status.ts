/**
 * GET /health of a server in a cluster that lost Redis, with HTTP 503: a load balancer takes it
 * out of rotation until Redis is back. A lone server is never unhealthy, so the spec's answer,
 * `{ status: 'healthy', uptime }` with 200, is all it ever gives.
 */
export interface UnhealthyStatus {
  status: 'unhealthy';
  /** Seconds since the server process started. */
  uptime: number;
  /** What is wrong, in one line, e.g. "Redis unreachable: connect ECONNREFUSED 10.0.0.5:6379". */
  reason: string;
}
