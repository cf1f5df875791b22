// Limits of the session core that the spec leaves to the implementation. The spec's own limits
// and timeouts live in ../protocol/limits.ts and ../signaling/limits.ts.

/** A transfer's screen is redrawn at most this often while bytes flow. */
export const PROGRESS_INTERVAL_MS = 250;

/** Speed is measured over this much recent time, so it follows changes without jittering. */
export const SPEED_WINDOW_MS = 3000;

/**
 * One connection attempt (new PeerConnection, offer, answer, ICE, DTLS, channel) gets this long
 * before the offerer starts another; three fit in the spec's 30 s connection window.
 */
export const CONNECT_ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * An answerer whose offerer is not Ferry adds the offerer's candidates, and so starts its own
 * connectivity checks, only once its connection is up or after this long from taking the offer. The offerer's checks, sent
 * once it has the answer, connect the pair without them; checks that reach a libdatachannel
 * offerer while it is still applying the answer make it fail the DTLS handshake (docs/protocol.md,
 * "Setup retry"). Only a route the offerer's checks cannot open waits this long.
 */
export const ANSWERER_CHECKS_HOLD_MS = 1_000;

/** At most this many attempts: one that fails at once (ICE failed) must not spin a loop. */
export const CONNECT_ATTEMPTS_MAX = 3;

/**
 * Backstop for a send-buffer wait: a level the channel's low event did not report (another wait
 * moved the threshold) is seen within this long.
 */
export const BUFFER_POLL_MS = 50;

/**
 * How long a closing channel may take to confirm. The close goes out after every byte queued
 * before it, so its confirmation means the peer has them; the connection is closed only then.
 */
export const CHANNEL_CLOSE_GRACE_MS = 5000;

/** Between two tries to get back into the reconnect room (the server may be out of reach too). */
export const RECONNECT_RETRY_MS = 1000;
