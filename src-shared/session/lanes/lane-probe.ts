import { binaryFrame, type Frame } from '../../protocol/frame';
import {
  LANE_PROBE_BYTES,
  LANE_PROBE_TIMEOUT_MIN_MS,
  LANE_PROBE_TIMEOUT_ROUND_TRIPS,
} from '../session-limits';
import type { LaneConnection } from './lane-connection';
import type { LaneSignalMessage } from './lane-messages';

/**
 * The two messages of a lane's probe (`lane-mtu`, docs/protocol.md, "Lanes"), the first on each
 * end of a probing lane's channel: the sender's, larger than one packet at LANE_PROBE_MTU, and the
 * receiver's one-byte answer. Neither is numbered nor seen by the session core.
 */
export function probeFrame(): Frame {
  return binaryFrame(new Uint8Array(LANE_PROBE_BYTES));
}

export function isProbe(frame: Frame): boolean {
  return frame.kind === 'binary' && frame.bytes.byteLength === LANE_PROBE_BYTES;
}

const ANSWER = 1;

export function probeAnswerFrame(): Frame {
  return binaryFrame(Uint8Array.of(ANSWER));
}

export function isProbeAnswer(frame: Frame): boolean {
  return frame.kind === 'binary' && frame.bytes.byteLength === 1 && frame.bytes[0] === ANSWER;
}

/** How long a sender waits for the answer, over a path whose round trip SCTP measured (or not). */
export function probeTimeoutMs(roundTripMs: number | undefined): number {
  return Math.max(LANE_PROBE_TIMEOUT_MIN_MS, LANE_PROBE_TIMEOUT_ROUND_TRIPS * (roundTripMs ?? 0));
}

/**
 * Sender: whether its lanes probe (`lane-mtu`), and what an unanswered probe means. While no probe
 * was answered, one going unanswered says the path drops the larger packets: every lane is made
 * again with libdatachannel's own MTU and offered without a probe. Once one was answered the path
 * carries them, and a probe unanswered was likely lost to plain loss (docs/protocol.md, "Larger
 * packets").
 */
export class LaneProbing {
  #probing: boolean;
  #passed = false;

  constructor(probing: boolean) {
    this.#probing = probing;
  }

  /** The lanes made now send the larger packets and probe first. */
  get probing(): boolean {
    return this.#probing;
  }

  answered(): void {
    this.#passed = true;
  }

  /** A probe went unanswered in time: true when the lanes fall back to the usual packets. */
  fallsBack(): boolean {
    if (this.#passed || !this.#probing) return false;
    this.#probing = false;
    return true;
  }
}

/**
 * Receiver: whether an offer for a lane it already made is the sender's fallback, which makes the
 * lane again without a probe. Each probing lane may be made again once, before the stripe.
 */
export function isFallbackOffer(
  existing: LaneConnection,
  offer: LaneSignalMessage,
  striped: boolean,
): boolean {
  return (
    existing.probe !== 'none' && offer.signal.type === 'offer' && offer.probe !== true && !striped
  );
}
