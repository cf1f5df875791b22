// Every number of the signaling server (docs/protocol.md, "The signaling server" and "Server
// limits"), one constant each, for the server and for the clients that talk to it. Sizes are
// binary: the spec's "kB" means KiB, as in Express's own "100kb".

export { ROLE_WAIT_TIMEOUT_MS } from '../protocol/limits';

import { HOUR_MS, MINUTE_MS, SECOND_MS } from '../time-units';

/** The port a standalone signaling server listens on unless told otherwise. */
export const DEFAULT_SIGNALING_PORT = 3001;

/** A room holds its sender and its receiver, nobody else. */
export const ROOM_CAPACITY = 2;

/** A short code resolves for this long after registration. */
export const CODE_LIFETIME_MS = 10 * MINUTE_MS;

/** How often the server clears lapsed codes. */
export const CODE_SWEEP_INTERVAL_MS = MINUTE_MS;

/**
 * Three-word draws the server makes while they collide with live codes; then it draws four words
 * (the word counts are `CODE_WORDS_PER_CODE` and `CODE_WORDS_AFTER_COLLISIONS` of src-shared/codes).
 */
export const CODE_COLLISION_DRAWS = 10;

/**
 * Live codes a server holds before POST /api/code answers 503. The spec leaves the default open;
 * at 100,000 a three-word draw still collides less than once in ten thousand, and the codes take a
 * few tens of megabytes.
 */
export const DEFAULT_MAX_ACTIVE_CODES = 100_000;

/** Largest HTTP request body on every endpoint. */
export const MAX_REQUEST_BODY_BYTES = 100 * 1024;

/**
 * Largest signaling message on either socket transport that the server acts on; a larger one is
 * answered with an `error`. Same ceiling as an HTTP body: an SDP offer is a few kilobytes.
 */
export const MAX_SIGNAL_MESSAGE_BYTES = 100 * 1024;

/**
 * A frame above this is refused by the transport itself, which closes the connection instead of
 * answering with an `error`; it is set well above MAX_SIGNAL_MESSAGE_BYTES so that an oversized
 * signal is usually answered, while no single frame can hold much memory.
 */
export const MAX_TRANSPORT_FRAME_BYTES = 4 * 1024 * 1024;

/** The largest `bytes` a single stats report may carry by default: the spec's 5 TiB. */
export const DEFAULT_MAX_REPORT_BYTES = 5_497_558_138_880;

/**
 * Every per-IP limit counts requests in a window of this length, opened by the client's first
 * request; its counter is dropped when the window ends.
 */
export const RATE_WINDOW_MS = MINUTE_MS;

/** Event-socket and WebSocket connections per IP per window, counted together. */
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 30;

/** GET /api/turn-credentials per IP per window. */
export const DEFAULT_MAX_TURN_REQUESTS_PER_IP = 20;

/** POST /api/code and GET /api/code/:code per IP per window, on one shared counter. */
export const DEFAULT_MAX_CODE_REQUESTS_PER_IP = 60;

/**
 * Failed code lookups (GET /api/code/:code answering 404) per window from all clients together,
 * on one server or across a cluster; once spent, every lookup answers 429 until the window ends.
 * At 100 a minute a guesser gets 1,000 tries in a code's 10 minutes: about one chance in 1.9
 * million at a given code (docs/protocol.md, "Short codes", has the arithmetic).
 */
export const DEFAULT_MAX_FAILED_CODE_LOOKUPS = 100;

/** POST /api/stats/report per IP per window; the spec gives it no override. */
export const MAX_REPORTS_PER_IP = 60;

/**
 * Relay credentials of both TURN paths expire this long after issuance (the spec says 24 hours;
 * docs/protocol.md, "Relay credentials", says why Ferry issues them for 1). A TURN server checks
 * the expiry when an allocation is made, so a relayed transfer outlives its credentials.
 */
export const RELAY_CREDENTIAL_LIFETIME_MS = HOUR_MS;

/**
 * Random bytes in the user part of a self-hosted TURN user name, `<expiry_unix>:<id>`, so that
 * each request's credentials are its own and the TURN server's logs and quotas tell them apart.
 */
export const RELAY_USER_ID_BYTES = 9;

/** A relay provider's minted credentials are served from memory for this long. */
export const RELAY_PROVIDER_CACHE_MS = 5 * MINUTE_MS;

/** A call to the relay provider is abandoned after this. */
export const RELAY_PROVIDER_TIMEOUT_MS = 10 * SECOND_MS;

/**
 * While the relay provider fails, its last good credentials are served until they are this old,
 * leaving half an hour of their 1-hour validity for a peer to connect with; then the server falls
 * back.
 */
export const RELAY_PROVIDER_STALE_REUSE_MS = RELAY_CREDENTIAL_LIFETIME_MS / 2;

/** How often the server pings a WebSocket peer; one that has not answered the previous ping is dropped. */
export const WS_HEARTBEAT_INTERVAL_MS = 30 * SECOND_MS;

/** How long a peer's event socket may take to connect before the server counts as out of reach. */
export const SOCKET_CONNECT_TIMEOUT_MS = 20_000;

/** The web host answers `GET /api/config` from memory; a config slower than this is absent. */
export const CONFIG_REQUEST_TIMEOUT_MS = 10_000;

/**
 * A signaling server's `error` message is shown, after the sentence of ERR_SIGNALING_ERROR, up to
 * this many characters: it is the server's text, not Ferry's, and may be any length.
 */
export const SERVER_MESSAGE_MAX_CHARS = 200;

/**
 * A LAN room's own HTTPS certificate is valid this long, then replaced. Apple's platforms refuse
 * a TLS server certificate that claims more than 825 days, even when the person accepted it.
 */
export const LAN_ROOM_CERTIFICATE_VALID_DAYS = 825;
