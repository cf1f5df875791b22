import type { RandomIndex } from './codes/code-registrar';
import type { LogSink } from './log-sink';
import type { Clock, Every } from './schedule';

/**
 * How to run a signaling server. Every field mirrors one environment variable of
 * `npm run server` (see env-config.ts); the last four let tests and embedders replace the clock,
 * the timers, the random source and the log.
 */
export interface SignalingServerOptions {
  /** PORT; 0 picks a free port. Default 3001. */
  port?: number;
  /** HOST. Default 0.0.0.0. */
  host?: string;
  /** CLIENT_URL: one more browser origin allowed besides the built-in ones. */
  clientUrl?: string;
  /** TRUSTED_PROXY_COUNT: proxy hops whose X-Forwarded-For entries are believed. Default 0. */
  trustedProxyCount?: number;
  /** MAX_CONNECTIONS_PER_IP, per 60 s, both socket transports together. Default 30. */
  maxConnectionsPerIp?: number;
  /** MAX_TURN_REQUESTS_PER_IP, per 60 s. Default 20. */
  maxTurnRequestsPerIp?: number;
  /** MAX_CODE_REQUESTS_PER_IP, per 60 s, registering and resolving together. Default 60. */
  maxCodeRequestsPerIp?: number;
  /**
   * MAX_FAILED_CODE_LOOKUPS: failed GET /api/code/:code per 60 s from all clients together (on
   * every server of a cluster together); once spent, every lookup answers 429. Default 100.
   */
  maxFailedCodeLookups?: number;
  /** MAX_REPORT_BYTES: the largest `bytes` one report may carry. Default 5 TiB. */
  maxReportBytes?: number;
  /** MAX_ACTIVE_CODES: live codes before POST /api/code answers 503. Default 100,000. */
  maxActiveCodes?: number;
  /**
   * REDIS_URL: share rooms, codes, the byte counter and the per-IP counters with every server
   * using this Redis, so that they act as one. Unset: all in memory.
   */
  redisUrl?: string;
  /** TURN_SECRET and TURN_DOMAIN: a self-hosted TURN server sharing this secret. */
  turnSecret?: string;
  turnDomain?: string;
  /** TURN_PROVIDER_KEY_ID and TURN_PROVIDER_API_TOKEN: mint credentials at a relay provider. */
  turnProviderKeyId?: string;
  turnProviderApiToken?: string;
  /** TURN_PROVIDER_URL: the relay provider's API base. Default https://rtc.live.cloudflare.com. */
  turnProviderUrl?: string;
  /** How long a call to the relay provider may take. Default 10 s. */
  turnProviderTimeoutMs?: number;
  /**
   * Answer GET /api/turn-credentials with an empty list, so every peer uses host candidates only
   * and no STUN or TURN request leaves the network (the desktop app's LAN room).
   */
  hostCandidatesOnly?: boolean;
  /**
   * PRESENCE: keep a roster of the programs that ask to be listed and relay their invitations
   * (docs/protocol.md, "Presence"). Off by default, so that a public server never lists strangers
   * to each other; the desktop app's LAN room turns it on.
   */
  presence?: boolean;
  /** Also allow a browser origin naming this server's own host (the web-client host sets it). */
  allowSameOrigin?: boolean;
  now?: Clock;
  every?: Every;
  /** A uniformly random integer in [0, n); must be cryptographically secure. Default crypto.randomInt. */
  randomIndex?: RandomIndex;
  log?: LogSink;
}

export const DEFAULT_HOST = '0.0.0.0';
export const DEFAULT_TURN_PROVIDER_URL = 'https://rtc.live.cloudflare.com';
