// Every limit and timeout of the data channel, plus the client-side role wait of the signaling
// server (docs/protocol.md, "Limits and timeouts"). Sizes are binary: the spec's "KB", "MB" and
// "GB" mean KiB, MiB and GiB.

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** Highest data-channel protocol version this build speaks (`pv`); raised only on a breaking wire change. */
export const PROTOCOL_VERSION = 1;

/** Lowest data-channel protocol version this build still supports (`pvMin`). */
export const PROTOCOL_VERSION_MIN = 1;

/** A text frame longer than this (in UTF-8 bytes) is a protocol error, never a control message. */
export const CONTROL_FRAME_MAX_BYTES = 1000;

/** Whichever side displays a peer's abort reason shows at most this many characters of it. */
export const DISPLAYED_REASON_MAX_CHARS = 300;

/** Chunks follow the negotiated maximum message size but never exceed this. */
export const CHUNK_MAX_BYTES = 256 * KiB;

/** Chunk size of the native engine when the connection reports no maximum message size. */
export const CHUNK_FALLBACK_NATIVE_BYTES = 16 * KiB;

/** Chunk size of the browser backend when the connection reports no maximum message size. */
export const CHUNK_FALLBACK_BROWSER_BYTES = 64 * KiB;

/** The sender pauses reading once the channel's send buffer holds this much. */
export const SEND_BUFFER_HIGH_WATER_BYTES = 8 * MiB;

/** A paused sender resumes once the send buffer drops below this. */
export const SEND_BUFFER_LOW_WATER_BYTES = 4 * MiB;

/** A browser sender drains its buffer below this before each file's metadata. */
export const BROWSER_METADATA_DRAIN_BYTES = 64 * KiB;

/** A browser sender reads its source in slabs of this size and sub-slices them into chunks. */
export const BROWSER_SOURCE_SLAB_BYTES = 4 * MiB;

/** A browser peer waits this long after connecting before checking the route and sending. */
export const BROWSER_CONNECT_DELAY_MS = 2000;

/**
 * A sender refuses, with `incompatible`, a file larger than this when the route is relayed
 * (TURN): relays are shared and metered. The spec states "2 GB on the sending side"; Ferry reads
 * it as 2 GiB, and a file of exactly this size still passes.
 */
export const RELAY_SIZE_CAP_BYTES = 2 * GiB;

/**
 * The value of the `a=max-message-size` attribute the native engine adds to its SDP answer, since
 * its WebRTC stack omits it and browsers would otherwise assume RFC 8841's 65536. The spec says
 * "1 GB"; Ferry writes 1 GiB.
 */
export const SDP_MAX_MESSAGE_SIZE_BYTES = GiB;

/** Waiting for the peer's offer or answer; the connection attempt then fails. */
export const OFFER_ANSWER_TIMEOUT_MS = 30_000;

/** ICE, DTLS and data-channel opening; then "timed out establishing a connection". */
export const CONNECT_TIMEOUT_MS = 30_000;

/** Grace for the data channel to open once the peers are connected; then the attempt fails. */
export const CHANNEL_GRACE_MS = 10_000;

/** Sender waiting for a file's ack: long, because a person may be deciding whether to accept. */
export const ACK_TIMEOUT_MS = 120_000;

/** Sender whose send buffer did not shrink at all for this long fails the transfer. */
export const DRAIN_STALL_TIMEOUT_MS = 60_000;

/** Native sender after the batch: fails when the buffer did not shrink at all for this long. */
export const DELIVERY_TIMEOUT_MS = 60_000;

/**
 * Native sender whose receiver announced `ver` (a native receiver, which sends `received`): after
 * its buffer drains it keeps the channel open this long for `received`, so the batch ends on the
 * receiver's word, not on a drained buffer (docs/protocol.md, "Delivery confirmation").
 */
export const RECEIVED_WAIT_MS = 10_000;

/** Native receiver connected but no data yet; then "no data arrived within 30s". */
export const RECEIVER_FIRST_DATA_TIMEOUT_MS = 30_000;

/** Native receiver mid-transfer with no progress for this long fails the transfer. */
export const RECEIVER_NO_PROGRESS_TIMEOUT_MS = 60_000;

/** Receiver waits this long before tearing down, so its final acknowledgement reaches the sender. */
export const RECEIVER_TEARDOWN_GRACE_MS = 5000;

/** Reporting the received byte count to the signaling server is abandoned after this. */
export const BYTE_COUNT_REPORT_TIMEOUT_MS = 5000;

/** Before closing after `incompatible`, a peer waits up to this long for the send buffer to drain. */
export const ABORT_REASON_FLUSH_MS = 2000;

/** Fetching relay credentials over HTTP; then a warning and STUN only. */
export const RELAY_CREDENTIALS_TIMEOUT_MS = 30_000;

/** Registering or resolving a room code over HTTP. */
export const CODE_REQUEST_TIMEOUT_MS = 30_000;

/** Command-line and desktop clients wait this long for the server to assign a role after join-room. */
export const ROLE_WAIT_TIMEOUT_MS = 20_000;

// Ferry's extensions (docs/protocol.md, "Ferry's extensions"). None of them is the spec's.

/**
 * A sender's word on how its code ended (docs/protocol.md, "Dead codes") is abandoned after
 * this: it is best effort, and a sender that ends must not wait long on it.
 */
export const CODE_RELEASE_TIMEOUT_MS = 2000;

/**
 * Content digests are SHA-256 over fixed blocks of this size; a file's digest is the SHA-256 of
 * its block digests in order. A browser hashes a block at once (WebCrypto, or a worker where it
 * has none), and a resume starts on a block boundary.
 */
export const VERIFY_BLOCK_BYTES = 4 * MiB;

/**
 * How many blocks may be hashing at once before a FileDigest asks its caller to wait: enough to
 * keep the hashing threads busy, little enough that a fast link cannot pile up memory. Also the
 * most Web Workers a page without WebCrypto hashes in (docs/architecture.md, "Hashing").
 */
export const VERIFY_BLOCKS_IN_FLIGHT = 4;

/** A digest on the wire: SHA-256 in lowercase hex. */
export const VERIFY_DIGEST_PATTERN = /^[0-9a-f]{64}$/;

/** A kept `.part` and its sidecar older than this are deleted when a batch arrives in their folder. */
export const PART_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A receiver leaves at least this much of its disk free, whatever it accepted (docs/protocol.md,
 * "Free space"): a full disk stops the rest of the system, not only Ferry.
 */
export const FREE_SPACE_RESERVE_MIN_BYTES = GiB;

/** ... or this share of the whole volume, when that is more. */
export const FREE_SPACE_RESERVE_SHARE = 0.02;

/**
 * A folder's index of the files Ferry received there (docs/protocol.md, "Resume") keeps the
 * newest this many receipts; an older file is then sent again rather than skipped.
 */
export const RECEIPTS_KEEP = 1000;

/** An index longer than this is not read: it is emptied to the newest receipts on the next write. */
export const RECEIPTS_MAX_BYTES = 512 * 1024;

/**
 * Peers that announced `reconnect` send `ferry-alive` this often, whatever else they send, so
 * that the other side can tell a silent link from a busy one.
 */
export const LINK_ALIVE_INTERVAL_MS = 1000;

/** Between such peers, nothing at all arriving for this long means the link is lost. */
export const LINK_SILENCE_MS = 4000;

/** After a lost link both sides keep their place and try to reconnect for this long. */
export const RECONNECT_WINDOW_MS = 10 * 60 * 1000;

/**
 * A receiver that will ask its person, and whose sender announced `list`, waits this long after
 * the first metadata for the batch's file list before asking with what it has (docs/protocol.md,
 * "File list"). The sender's 120 s ack deadline covers this wait and the person's answer.
 */
export const LIST_WAIT_MS = 10_000;

/** A file list names at most this many files; a larger batch lists its first ones. */
export const LIST_MAX_FILES = 10_000;

/**
 * A listed name is shown with at most this many characters: its start and its end, so the
 * extension stays in sight. The check against each file's metadata uses the whole name.
 */
export const LISTED_NAME_DISPLAY_MAX_CHARS = 120;

/**
 * Each side of `sas` draws a fresh nonce of this many random bytes per connection: the sender
 * commits to its own before it sees the receiver's (docs/protocol.md, "Verification words").
 */
export const SAS_NONCE_BYTES = 32;

/** A nonce or a commitment on the wire: 32 bytes in lowercase hex. */
export const SAS_HEX_PATTERN = /^[0-9a-f]{64}$/;

/** What the SAS digest starts with, so it can never be mistaken for any other SHA-256 input. */
export const SAS_CONTEXT = 'ferry-sas-v1\n';

/** The SAS is read from this many leading bytes of its digest, as one integer (48 bits). */
export const SAS_DIGEST_BYTES_USED = 6;

/** Words a person compares: three of the code word list, about 30.9 bits with 1247 words. */
export const SAS_WORD_COUNT = 3;

/**
 * `a=fingerprint` lines a remote description may carry, session and media level together: with
 * more, a browser may check DTLS against any of them (docs/protocol.md, "Connection requirement").
 */
export const REMOTE_FINGERPRINT_LINES_MAX = 1;

/**
 * The secret a receive link carries in its fragment, drawn by the sender for each code: this
 * many random bytes, 128 bits (docs/protocol.md, "Secret link").
 */
export const LINK_SECRET_BYTES = 16;

/** The secret as written in a link: base64url without padding, 22 characters for 16 bytes. */
export const LINK_SECRET_PATTERN = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/** What every link proof's HMAC input starts with, so it is never another message's MAC. */
export const LINK_CONTEXT = 'ferry-link-v1\n';

/** A link proof on the wire: HMAC-SHA256, 32 bytes in lowercase hex. */
export const LINK_PROOF_PATTERN = /^[0-9a-f]{64}$/;

/**
 * A device name, as announced beside `device` or given by a person, is cut to this many
 * characters once cleaned (docs/protocol.md, "Remembered devices").
 */
export const DEVICE_NAME_MAX_CHARS = 64;

/** A device keeps at most this many remembered devices; remembering one more is refused. */
export const REMEMBERED_DEVICES_MAX = 200;

/**
 * A native installation's certificate is valid this long from its creation; peers match it by
 * fingerprint, so the dates only have to satisfy the DTLS stacks that read them.
 */
export const NATIVE_CERTIFICATE_VALID_DAYS = 3650;

/**
 * A browser's stored certificate is asked to last this long; a browser may allow less, and an
 * expired one is replaced, after which peers see a new device.
 */
export const BROWSER_CERTIFICATE_VALID_DAYS = 365;

/** IndexedDB that has not answered by then (an open held up by another tab) counts as unavailable. */
export const BROWSER_STORAGE_WAIT_MS = 3000;

/**
 * A browser's download service worker that has not installed by then is taken as unusable, and
 * received files are kept in memory instead.
 */
export const DOWNLOAD_WORKER_READY_TIMEOUT_MS = 5000;

/**
 * A text message no larger than this (UTF-8 bytes) is held in memory and shown; a larger one is
 * saved as its file (docs/protocol.md, "Text messages"). Senders refuse to send a larger text.
 */
export const TEXT_MESSAGE_MAX_BYTES = MiB;

/**
 * A text message from a Ferry sender of at most this many bytes (UTF-8) is accepted without
 * asking and shown in the prompt itself; a longer one asks as any offer does. Local policy, not
 * wire (docs/architecture.md, "The application core").
 */
export const INLINE_TEXT_MAX_BYTES = 1024;

/** The one file a text message travels as, which a spec-only receiver saves as is. */
export const TEXT_MESSAGE_FILE_NAME = 'message.txt';

/**
 * Chunks cross to the worker in batches of about this size, one message each: every message
 * costs a hop between threads, whatever it carries.
 */
export const DOWNLOAD_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Above this a receive saved without a streamed download or a chosen folder (built into a Blob
 * until its last byte, src-renderer/backend/browser/blob-parts.ts) gets a warning before it is
 * accepted. Chosen for phones, the browsers most likely to end up there (a LAN room over plain
 * HTTP offers no other way to save): the browser keeps the whole file in its Blob storage, in
 * memory or spilled to disk, and a phone has little of either to spare.
 */
export const IN_MEMORY_WARNING_BYTES = 256 * MiB;

/**
 * A download built into a Blob folds the chunks received so far into one Blob part each time
 * they reach this size, so the browser can move them out of the tab (Chromium's Blob storage
 * lives in the browser process and spills to disk) instead of the tab holding every chunk until
 * the last byte. Small enough to bound the tab, large enough to keep the parts few (a 4 GiB file
 * is 256).
 */
export const BLOB_PART_BYTES = 16 * MiB;

/**
 * Browsers fetch an object URL's download after the click returns; revoking it at once can cancel
 * the download, so it is revoked after this.
 */
export const OBJECT_URL_LIFETIME_MS = 40_000;

/**
 * The hidden frame that navigates to a download is removed this long after the file ends: removing
 * it before the browser has turned the navigation into a download cancels it, which for a small
 * file can be a few milliseconds after it started.
 */
export const DOWNLOAD_FRAME_LIFETIME_MS = 40_000;

/** Chromium stops a service worker after 30 s without events; a message resets that clock. */
export const DOWNLOAD_WORKER_KEEP_ALIVE_MS = 10_000;
