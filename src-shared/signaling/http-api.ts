// The JSON bodies of the signaling server's HTTP endpoints and of the web-client config.

/** One element of the array GET /api/turn-credentials returns. STUN and TURN never share an entry. */
export interface IceServerEntry {
  /** Either form occurs; every consumer accepts both. */
  urls: string | string[];
  /** TURN entries only. */
  username?: string;
  /** TURN entries only. */
  credential?: string;
}

/** GET / */
export interface RootStatus {
  status: 'ok';
  /** Server time, ISO 8601. */
  timestamp: string;
}

/** GET /health */
export interface HealthStatus {
  status: 'healthy';
  /** Seconds since the server process started. */
  uptime: number;
}

/** POST /api/code request. */
export interface CodeRequest {
  roomId: string;
}

/** POST /api/code response. */
export interface CodeResponse {
  code: string;
}

/** GET /api/code/:code response. */
export interface CodeResolution {
  roomId: string;
}

/**
 * How a code ended, as its sender told the server (docs/protocol.md, "Dead codes"): `used`, a
 * receiver came and the transfer ran to its end; `cancelled`, the sending person cancelled.
 */
export type CodeOutcome = 'used' | 'cancelled';

export const CODE_OUTCOMES: readonly CodeOutcome[] = ['used', 'cancelled'];

/** POST /api/code/:code/release request (a Ferry extension): the room proves the sender. */
export interface CodeRelease {
  roomId: string;
  outcome: CodeOutcome;
}

/** POST /api/stats/report request, sent by receivers only. */
export interface StatsReport {
  bytes: number;
}

/** GET /api/stats and POST /api/stats/report response. */
export interface StatsTotal {
  totalBytes: number;
}

/** GET /api/config on the web-client host. */
export interface WebClientConfig {
  /** Where the browser finds the signaling server; empty means its own origin. */
  socketUrl: string;
  /** The source revision of the client build (40 hex characters), null when unset. */
  commit: string | null;
}

/** Every HTTP failure is `{ error }` with one of these, or a collapsed thrown error. */
export interface ErrorBody {
  error: string;
}

export const HTTP_ERROR = {
  invalidRoomId: 'Invalid room ID',
  invalidByteCount: 'Invalid byte count',
  /** Ferry's code release without a UUID `roomId` or a known `outcome` (400). */
  invalidRelease: 'Invalid release',
  codeNotFound: 'Code not found or expired',
  tooManyRequests: 'Too many requests',
  tooManyReports: 'Too many reports',
  serverBusy: 'Server busy, try again shortly',
  notFound: 'Not found',
  /** A LAN room's answer to a Host header other than its own address and port (421). */
  misdirected: 'Misdirected request: open this server by its own address',
  /** Any thrown error with a status below 500, malformed JSON and oversized bodies included. */
  badRequest: 'Bad request',
  /** Any thrown error with a status of 500 or above, a rejected CORS origin included. */
  internal: 'Internal server error',
} as const;
