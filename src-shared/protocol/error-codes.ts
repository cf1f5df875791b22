/**
 * Stable codes for every failure a person can see, whether the protocol machines raise it or a
 * driver does (signaling, connection, disk). Codes never change once shipped: UIs, logs and tests
 * match on them. Each default message is one lowercase sentence without a final period, so it
 * reads after a prefix such as "error: "; the spec's own wordings are kept verbatim.
 */
export const ERROR_MESSAGES = {
  ERR_SIGNALING_UNREACHABLE: 'could not reach signaling server',
  ERR_SIGNALING_ERROR: 'the signaling server reported an error',
  ERR_RATE_LIMITED: 'the signaling server refused: too many requests, try again shortly',
  ERR_SERVER_BUSY: 'server busy, try again shortly',
  ERR_REGISTER_CODE: 'could not register code',
  ERR_CODE_NOT_FOUND: 'code not found or expired',
  ERR_CODE_EXPIRED: 'the code expired before the other device used it',
  // A code that resolves but leads to no one (docs/protocol.md, "Dead codes").
  ERR_CODE_USED:
    'that code was already used and its transfer has ended; ask the sender for a new code',
  ERR_CODE_CANCELLED: 'the sender cancelled that code; ask them for a new one',
  ERR_NO_ONE_WAITING:
    'no one is waiting to send with that code any more; ask the sender for a new code',
  // A send without a code whose one device did not come (docs/protocol.md, "Pair rooms"); the
  // flow names the device instead: "“NAME” is not online".
  ERR_NOT_ONLINE: 'the other device is not online',
  ERR_ROLE_TIMEOUT: 'the signaling server assigned no role within 20 seconds',
  ERR_ROOM_FULL: 'this transfer already has two devices in it',
  ERR_SIGNAL_TIMEOUT: "timed out waiting for the other device's offer or answer",
  ERR_CONNECT_TIMEOUT: 'timed out establishing a connection',
  ERR_CHANNEL_TIMEOUT: 'the data channel did not open after the devices connected',
  ERR_NO_ROUTE:
    'no network route between the two devices was found: put both on the same network, or use a relay (TURN) server',
  ERR_PEER_CLOSED: 'the other device closed the connection',
  ERR_LINK_LOST: 'the connection was lost and could not be restored within 10 minutes',
  ERR_ACK_TIMEOUT: 'the receiver did not answer within 120 seconds',
  ERR_DRAIN_STALLED: 'the connection stopped draining for 60 seconds',
  ERR_DELIVERY_TIMEOUT: 'timed out waiting for delivery confirmation',
  ERR_NO_DATA: 'no data arrived within 30s',
  ERR_STALLED: 'the transfer made no progress for 60 seconds',
  ERR_DECLINED: 'the transfer was declined',
  ERR_CANCELLED: 'the transfer was cancelled',
  // The other side's person chose, and said so (docs/protocol.md, "Named outcomes").
  ERR_PEER_DECLINED: 'declined by the other person',
  ERR_PEER_CANCELLED: 'stopped by the other person',
  ERR_INCOMPATIBLE_VERSION: 'the two devices run incompatible versions of Ferry',
  ERR_PEER_ABORTED: 'the other device stopped the transfer',
  ERR_SIZE_MISMATCH: 'a file did not arrive at its announced size and was discarded',
  ERR_OVERRUN: 'the sender sent more bytes than it announced and the file was discarded',
  ERR_VERIFY_FAILED: "a file did not match the sender's digest and was discarded",
  ERR_SAS_MISMATCH:
    "the other device's verification did not check out; someone may be intercepting this connection",
  ERR_NOT_CONFIRMED: 'the verification words were not confirmed',
  // Shown as it stands, without a detail (docs/protocol.md, "Secret link").
  ERR_LINK_MISMATCH: 'someone may be intercepting this connection',
  ERR_UNEXPECTED_DEVICE:
    'the other device is not the one expected; someone may be intercepting this connection',
  // Refused before the description is applied (docs/protocol.md, "Connection requirement").
  ERR_TWO_FINGERPRINTS:
    "the other device's connection named more than one certificate; someone may be intercepting this connection",
  ERR_PROTOCOL: 'the other device broke the transfer protocol',
  ERR_BAD_METADATA: 'refused file description',
  ERR_NAME_TOO_LONG: 'a file name is too long to announce to the other device',
  ERR_SOURCE_CHANGED: 'a file changed on disk while it was being sent',
  ERR_SOURCE_UNREADABLE: 'a file could not be read while it was being sent',
  ERR_RELAY_SIZE_CAP: 'a file is larger than the 2 GiB limit for relayed connections',
  ERR_DISK: 'a received file could not be written to disk',
  ERR_DISK_FULL: 'there is not enough free space on this device to save the files',
  ERR_UNEXPECTED: 'something unexpected went wrong on this device',
} as const satisfies Record<`ERR_${string}`, string>;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

export const ERROR_CODES = Object.keys(ERROR_MESSAGES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_MESSAGES, value);
}

/** A failure as a machine reports it: the stable code and the sentence a person reads. */
export interface Failure {
  code: ErrorCode;
  message: string;
}

export function defaultFailure(code: ErrorCode): Failure {
  return { code, message: ERROR_MESSAGES[code] };
}
