// Every limit this peer keeps, taken from the two spec documents and never from Ferry's own
// constants: a value both sides imported could be wrong on both and never show.

/** Data-channel spec, "Limits": control text frame. */
export const CONTROL_FRAME_MAX_BYTES = 1000;
/** Data-channel spec, "Chunk sizing": chunks follow the negotiated size, capped here. */
export const CHUNK_CAP_BYTES = 256 * 1024;
/** Data-channel spec, "Chunk sizing": when the negotiated size is unavailable. */
export const CHUNK_FALLBACK_BYTES = { native: 16 * 1024, browser: 64 * 1024 } as const;
/** Data-channel spec, "Limits": pause above the high-water mark, resume below the low one. */
export const SEND_BUFFER_HIGH_WATER_BYTES = 8 * 1024 * 1024;
export const SEND_BUFFER_LOW_WATER_BYTES = 4 * 1024 * 1024;
/** Data-channel spec, "Limits": a browser sender's buffer before each file's metadata. */
export const BROWSER_METADATA_DRAIN_BYTES = 64 * 1024;
/** Data-channel spec, "Connection requirement": the answer's maximum message size, 1 GB. */
export const ANSWER_MAX_MESSAGE_SIZE_BYTES = 1024 * 1024 * 1024;
/** Data-channel spec, "Versioning": both numbers are 1 today. */
export const PROTOCOL_VERSION = { pv: 1, pvMin: 1 } as const;
/** Data-channel spec, `ver`: a semver string without a leading v, as a command-line peer sends. */
export const SPEC_PEER_VER = '0.0.0-spec-peer';

/** Signaling spec, "Limits": the server assigns a role within 20 s of join-room. */
export const ROLE_WAIT_MS = 20_000;
/** Signaling spec, "Short code": a receiver may join while the code lives, 10 minutes. */
export const PEER_JOIN_MS = 10 * 60_000;
/** Data-channel spec, native timeouts: registering or resolving a code over HTTP. */
export const CODE_REQUEST_MS = 30_000;
/** Data-channel spec, native timeouts: waiting for the peer's offer or answer. */
export const OFFER_ANSWER_MS = 30_000;
/** Data-channel spec, native timeouts: ICE, DTLS and the data channel opening. */
export const CONNECT_MS = 30_000;
/** Data-channel spec, native timeouts: sender waiting for a file's ack (a person may decide). */
export const ACK_MS = 120_000;
/** Data-channel spec, native timeouts: a send buffer that does not shrink at all. */
export const DRAIN_STALL_MS = 60_000;
/** Data-channel spec, native timeouts: waiting for delivery confirmation with no drain. */
export const DELIVERY_MS = 60_000;
/** Data-channel spec, native timeouts: receiver connected, no data yet. */
export const FIRST_DATA_MS = 30_000;
/** Data-channel spec, native timeouts: receiver mid-transfer with no progress. */
export const NO_PROGRESS_MS = 60_000;
/** Data-channel spec, native timeouts: receiver's grace before teardown. */
export const TEARDOWN_GRACE_MS = 5_000;
/** Data-channel spec, "incompatible" rule 5: flushing a last frame before closing. */
export const ABORT_FLUSH_MS = 2_000;
/** Data-channel spec, "incompatible" rule 4: a displayed reason is capped. */
export const REASON_DISPLAY_CHARS = 300;

/**
 * How often a waiting sender looks at its send buffer. Not from the spec: no event reports
 * "empty" (the low-water event fires once, at the threshold), so the drain is polled, as the
 * spec says a browser sender does.
 */
export const BUFFER_POLL_MS = 10;
