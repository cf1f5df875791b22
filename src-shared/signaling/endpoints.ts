// Where the signaling server answers: its HTTP paths and the paths of its two socket transports.

export const HEALTH_PATH = '/health';
export const TURN_CREDENTIALS_PATH = '/api/turn-credentials';
export const CODE_PATH = '/api/code';
export const STATS_PATH = '/api/stats';
export const STATS_REPORT_PATH = '/api/stats/report';

/** Served by the web-client host, not by the signaling server. */
export const WEB_CLIENT_CONFIG_PATH = '/api/config';

/** The event-socket (socket.io) transport, spoken by browser peers. */
export const SOCKET_IO_PATH = '/socket.io/';

/** The raw WebSocket transport, spoken by native peers: JSON objects with a `type`. */
export const WS_PATH = '/ws';

/** The address that resolves a short code, with the code escaped for a path segment. */
export function codePath(code: string): string {
  return `${CODE_PATH}/${encodeURIComponent(code)}`;
}

/**
 * Ferry's extension: where a sender says how its code ended (docs/protocol.md, "Dead codes").
 * The spec's seven endpoints are untouched.
 */
export function codeReleasePath(code: string): string {
  return `${codePath(code)}/release`;
}

/**
 * Ferry's extension: the header on a 200 of `GET /api/code/:code` that says how a released
 * code ended (a `CodeOutcome`); absent while its sender still waits, and for every code of a
 * sender that never released one (docs/protocol.md, "Dead codes").
 */
export const CODE_OUTCOME_HEADER = 'Ferry-Code-Outcome';
