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

/**
 * Connections a native sender stripes a batch over, the first included (docs/protocol.md,
 * "Lanes"): each SCTP association has its own window and congestion control, so over a long or
 * lossy path N of them carry about N times what one does (docs/performance.md).
 */
export const LANE_COUNT = 12;

/**
 * A sender opens lanes only over a path whose round trip is at least this long, as SCTP measured
 * it on the first connection: on a LAN one association already carries what the CPUs can, and
 * more would only cost CPU (docs/performance.md).
 */
export const LANE_MIN_ROUND_TRIP_MS = 5;

/**
 * Nor for a batch smaller than this: the lanes' handshakes take about nine round trips, in which
 * one connection already carries a few MiB. Measured at 20 / 50 / 100 ms, one connection moved
 * 2 and 4 MiB sooner than twelve and 8 MiB as soon or later (docs/performance.md, "Small batches").
 */
export const LANE_MIN_BATCH_BYTES = 6 * 1024 * 1024;

/**
 * A receiver answers lanes numbered 1 to LANES_MAX − 1 and no more: each costs a connection, and
 * twelve keep a receiver under 250 MB at full speed (sixteen measured 251 MB).
 */
export const LANES_MAX = 12;

/**
 * Lane messages a receiver holds while it reads whether its first connection is relayed, a
 * moment after it opened: eleven lanes' offers and a dozen candidates each, with room to spare.
 * Beyond it they are dropped, and those lanes do not open.
 */
export const LANE_MESSAGES_BEFORE_ROUTE_MAX = 256;

/**
 * The extra lanes get this long to open, counted from the sender's first offer; one not open by
 * then is closed, having carried nothing. The sender's data waits until the first lane opens, or
 * this long when none does, and then stays on the first connection alone (docs/protocol.md,
 * "Lanes"): a handshake that lost a packet or two is done well within it.
 */
export const LANE_SETUP_TIMEOUT_MS = 3_000;

/**
 * With `lane-mtu` agreed, a native sender's lanes send packets sized for this path MTU instead of
 * libdatachannel's 1280 (IPv6's minimum): 1 364 bytes of data per packet instead of 1 144, and
 * 14–19 % more carried at 0–100 ms on this project's 2-core machine, where the stack's cost per
 * packet binds (docs/performance.md, "MTU"). A path with a smaller MTU drops such packets
 * silently, so each lane proves it first (LANE_PROBE_BYTES) and the lanes fall back to 1280.
 */
export const LANE_PROBE_MTU = 1500;

/**
 * A probing lane's first message: larger than one packet at LANE_PROBE_MTU, so it crosses the
 * path in full-size packets, and small enough to cost nothing.
 */
export const LANE_PROBE_BYTES = 4096;

/**
 * The receiver's answer to a probe must arrive within this many of the first connection's round
 * trips, and never sooner than LANE_PROBE_TIMEOUT_MIN_MS: a probe lost to a path that drops large
 * packets is never retransmitted smaller, and one lost to plain loss costs only the larger MTU.
 */
export const LANE_PROBE_TIMEOUT_ROUND_TRIPS = 4;
export const LANE_PROBE_TIMEOUT_MIN_MS = 400;

/**
 * A `ferry-lane` message carries one SDP description or candidate: far above the spec's
 * 1000-byte control limit, far below anything that could cost memory.
 */
export const LANE_MESSAGE_MAX_BYTES = 16 * 1024;

/**
 * A lane may have what it delivers in this long outstanding (sent, not yet reported arrived), at
 * its own measured rate: about three round trips of a 100 ms path, so SCTP does not run dry, and
 * little enough that a frame waits at most about this long behind a lane that slowed down. Since
 * the session stopped pausing on the lanes' summed queues, this bounds what they hold; at 1000 ms
 * the lanes under 0.5 % loss queued so much behind a lane that had just lost a packet that the
 * second half of a 50 ms run fell to 0.7–3 MiB/s (docs/performance.md, "Lanes that ran dry").
 */
export const LANE_QUEUE_MS = 300;

/**
 * A lane's delivery rate is measured over at least this long: several round trips of a long
 * path, so whole frames handed on at once average out, and short enough to follow a lane that
 * slowed down within a fraction of LANE_QUEUE_MS.
 */
export const LANE_RATE_INTERVAL_MS = 250;

/** What a lane may have outstanding before its rate is known: room for its slow start. */
export const LANE_OUTSTANDING_START_BYTES = 1024 * 1024;

/**
 * A lane with less than this outstanding takes the next frame, whatever its measured rate: two
 * frames, so a lane that has slowed down (after a stall, say) and been given frames one at a time
 * is measured again above one frame per round trip and wins its share back (docs/protocol.md,
 * "Which lane").
 */
export const LANE_OUTSTANDING_FLOOR_BYTES = 512 * 1024;

/** What a lane may have outstanding at most, however fast it is: it caps one lane's window. */
export const LANE_OUTSTANDING_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Bytes a sender may have sent beyond the oldest frame the receiver has not yet handed on: what
 * the receiver may have to hold out of order while one lane catches up.
 */
export const LANE_WINDOW_BYTES = 48 * 1024 * 1024;

/** The receiver reports progress (`ferry-lane-ack`) once per this many bytes arrived or handed on. */
export const LANE_ACK_BYTES = 512 * 1024;

/**
 * Frames a receiver holds ahead of their turn may total this much: the window and one frame per
 * lane. A sender past it is broken or hostile, and the link is ended rather than the memory spent.
 */
export const LANE_REORDER_MAX_BYTES = 64 * 1024 * 1024;

/** A sequence marker may run at most this far ahead of the frame due: far beyond the window. */
export const LANE_SEQ_AHEAD_MAX = 1 << 20;

/**
 * SCTP settings of every native connection (node-datachannel's are process-wide, set once by the
 * engine's entry before its first connection: src-main/engine/sctp-settings.ts). libdatachannel delays a SACK up to 20 ms, which
 * holds the sender's window growth back by that much per round trip: one connection at 50 ms
 * carried 11.5 MiB/s with 5 ms against 6.9 with 20, and the same at 0, 20 and 100 ms and under
 * loss (docs/performance.md). 5 ms still acknowledges every second packet at once; acknowledging
 * every packet (0) cost a quarter of the throughput at 0 ms in CPU. Buffers stay libdatachannel's
 * 1 MiB: a larger receive buffer slowed a Chromium sender down, and a larger send buffer overflowed
 * the receiver's UDP socket.
 */
export const NATIVE_SCTP_SETTINGS = { delayedSackTime: 5 } as const;

/**
 * SCTP settings of the lanes a native peer opens, set just before the lanes are made and put back
 * once they are up (src-main/engine/sctp-settings.ts): a 2 MiB receive buffer lets a lane's window
 * past 1 MiB per round trip (usrsctp counts its buffer space per mbuf, so 1 MiB holds well under
 * 1 MiB of data). Only a native sender stripes into lanes; a first connection keeps 1 MiB, the
 * best of the sizes measured against a Chromium sender (docs/performance.md).
 */
export const LANE_SCTP_SETTINGS = { ...NATIVE_SCTP_SETTINGS, recvBufferSize: 2097152 } as const;

/** The macOS quarantine attribute's writer gets this long before the mark counts as failed. */
export const QUARANTINE_WRITE_TIMEOUT_MS = 10_000;

/** Received bytes go to disk in batches of this size: few system calls, little memory held. */
export const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * How many page-aligned batch buffers exist at most, shared by every file being written. Beyond
 * them (a disk slower than the network) batches use ordinary buffers and buffered writes.
 */
export const ALIGNED_BATCHES = 8;
