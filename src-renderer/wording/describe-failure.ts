import type { ErrorCode } from '../../src-shared/protocol/error-codes';

type FailureFamily =
  | 'server'
  | 'code'
  | 'expired'
  | 'code-used'
  | 'code-cancelled'
  | 'no-one-waiting'
  | 'not-online'
  | 'connect'
  | 'connection-lost'
  | 'unanswered'
  | 'declined'
  | 'you-declined'
  | 'you-cancelled'
  | 'peer-declined'
  | 'peer-cancelled'
  | 'stopped'
  | 'incompatible'
  | 'discarded'
  | 'refused'
  | 'intercepted'
  | 'source'
  | 'too-large'
  | 'disk'
  | 'disk-full'
  | 'unexpected'
  | 'other';

export interface FailureDescription {
  heading: string;
  /** Whether the same attempt may work a second time; otherwise the person goes back. */
  retry: boolean;
  /**
   * A person chose this, here or on the other device: said plainly, not as an error. `says`
   * stands for the engine's sentence; absent, the heading says it all.
   */
  chosen?: { says?: string };
  /** A sender may send the same files again, under a new code; a receiver goes back. */
  sendAgain?: true;
  /** The sender's button, when "Send again" is not the word for it. */
  againLabel?: string;
}

const FAMILIES: Record<FailureFamily, FailureDescription> = {
  server: { heading: 'Could not reach the server', retry: true },
  code: { heading: 'That code did not work', retry: false },
  // Nobody used the code in its 10 minutes (docs/protocol.md, "Short codes"): nothing went wrong.
  expired: {
    heading: 'This code expired — get a new one',
    retry: false,
    chosen: { says: 'Nobody used it within its 10 minutes.' },
    sendAgain: true,
    againLabel: 'Get a new code',
  },
  // A code that leads to no one (docs/protocol.md, "Dead codes"): dialled again, it would fail
  // again, so the person goes back to the code, which stays as typed.
  'code-used': { heading: 'That code was already used', retry: false },
  'code-cancelled': { heading: 'That code was cancelled', retry: false },
  'no-one-waiting': { heading: 'No one is waiting on that code', retry: false },
  // The device may come online later: the same send may then reach it.
  'not-online': { heading: 'That device is not online', retry: true },
  connect: { heading: 'Could not connect to the other device', retry: true },
  'connection-lost': { heading: 'Connection lost', retry: true },
  unanswered: { heading: 'No answer from the other device', retry: true },
  declined: { heading: 'Transfer declined', retry: false },
  'you-declined': {
    heading: 'Transfer declined',
    retry: false,
    chosen: { says: 'You declined the files.' },
  },
  'you-cancelled': {
    heading: 'Transfer stopped',
    retry: false,
    chosen: { says: 'You stopped the transfer.' },
  },
  // The other person's choice (docs/protocol.md, "Named outcomes"): asking again needs a new code.
  'peer-declined': {
    heading: 'Declined by the other person',
    retry: false,
    chosen: {},
    sendAgain: true,
  },
  'peer-cancelled': {
    heading: 'Stopped by the other person',
    retry: false,
    chosen: {},
    sendAgain: true,
  },
  stopped: { heading: 'Stopped by the other device', retry: false },
  incompatible: { heading: 'Incompatible versions', retry: false },
  discarded: { heading: 'File discarded', retry: true },
  refused: { heading: 'Transfer refused', retry: false },
  // Trying again on the same route would meet whoever sits on it again.
  intercepted: { heading: 'Verification failed', retry: false },
  source: { heading: 'A file could not be sent', retry: true },
  'too-large': { heading: 'Too large for a relayed connection', retry: false },
  disk: { heading: 'A file could not be saved', retry: true },
  'disk-full': { heading: 'Not enough free space', retry: true },
  unexpected: { heading: 'Something went wrong', retry: true },
  other: { heading: 'Transfer failed', retry: true },
};

// Partial on purpose: a code added to the protocol reads as "Transfer failed" until it gets a
// family here, and a test names every code still missing one.
export const FAMILY_OF_CODE: Partial<Record<ErrorCode, FailureFamily>> = {
  ERR_SIGNALING_UNREACHABLE: 'server',
  ERR_SIGNALING_ERROR: 'server',
  ERR_RATE_LIMITED: 'server',
  ERR_SERVER_BUSY: 'server',
  ERR_REGISTER_CODE: 'server',
  ERR_ROLE_TIMEOUT: 'server',
  ERR_CODE_NOT_FOUND: 'code',
  ERR_CODE_EXPIRED: 'expired',
  ERR_CODE_USED: 'code-used',
  ERR_CODE_CANCELLED: 'code-cancelled',
  ERR_NO_ONE_WAITING: 'no-one-waiting',
  ERR_NOT_ONLINE: 'not-online',
  ERR_ROOM_FULL: 'code',
  ERR_SIGNAL_TIMEOUT: 'connect',
  ERR_CONNECT_TIMEOUT: 'connect',
  ERR_CHANNEL_TIMEOUT: 'connect',
  ERR_NO_ROUTE: 'connect',
  ERR_PEER_CLOSED: 'connection-lost',
  ERR_LINK_LOST: 'connection-lost',
  ERR_DRAIN_STALLED: 'connection-lost',
  ERR_DELIVERY_TIMEOUT: 'connection-lost',
  ERR_NO_DATA: 'connection-lost',
  ERR_STALLED: 'connection-lost',
  ERR_ACK_TIMEOUT: 'unanswered',
  ERR_DECLINED: 'you-declined',
  ERR_CANCELLED: 'you-cancelled',
  ERR_PEER_DECLINED: 'peer-declined',
  ERR_PEER_CANCELLED: 'peer-cancelled',
  ERR_PEER_ABORTED: 'stopped',
  ERR_INCOMPATIBLE_VERSION: 'incompatible',
  ERR_SIZE_MISMATCH: 'discarded',
  ERR_OVERRUN: 'discarded',
  ERR_VERIFY_FAILED: 'discarded',
  ERR_SAS_MISMATCH: 'intercepted',
  ERR_LINK_MISMATCH: 'intercepted',
  ERR_UNEXPECTED_DEVICE: 'intercepted',
  ERR_TWO_FINGERPRINTS: 'intercepted',
  ERR_NOT_CONFIRMED: 'declined',
  ERR_PROTOCOL: 'refused',
  ERR_BAD_METADATA: 'refused',
  ERR_NAME_TOO_LONG: 'source',
  ERR_SOURCE_CHANGED: 'source',
  ERR_SOURCE_UNREADABLE: 'source',
  ERR_RELAY_SIZE_CAP: 'too-large',
  ERR_DISK: 'disk',
  ERR_DISK_FULL: 'disk-full',
  ERR_UNEXPECTED: 'unexpected',
};

/** The heading and way forward for a failed transfer's error code. */
export function describeFailure(code: string): FailureDescription {
  const family = Object.hasOwn(FAMILY_OF_CODE, code)
    ? FAMILY_OF_CODE[code as ErrorCode]
    : undefined;
  return FAMILIES[family ?? 'other'];
}
