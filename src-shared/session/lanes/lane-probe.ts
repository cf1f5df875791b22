import { binaryFrame, type Frame } from '../../protocol/frame';
import {
  LANE_PROBE_BYTES,
  LANE_PROBE_TIMEOUT_MIN_MS,
  LANE_PROBE_TIMEOUT_ROUND_TRIPS,
} from '../session-limits';

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
