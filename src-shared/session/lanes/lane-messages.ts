import * as v from 'valibot';
import { textFrame, utf8ByteLength, type Frame } from '../../protocol/frame';
import { decodeSignal, encodeSignal, type NegotiationSignal } from '../negotiation-signal';
import { LANES_MAX, LANE_MESSAGE_MAX_BYTES } from '../session-limits';

/**
 * One negotiation payload of extra lane `lane` (1 to LANES_MAX − 1). A sender's offer says `probe`
 * when the lane will prove its path first (`lane-mtu`).
 */
export interface LaneSignalMessage {
  type: 'ferry-lane';
  lane: number;
  signal: NegotiationSignal;
  probe?: true;
}

/**
 * The messages of the `lanes` extension (docs/protocol.md, "Lanes"), text frames on the first
 * connection. They are read by the lane set before the session core sees a frame.
 */
export type LaneMessage =
  /** Either way: a lane's negotiation. */
  | LaneSignalMessage
  /**
   * Sender to receiver: every later frame of the sender goes, after its sequence marker, over the
   * first connection or one of these lanes, numbered 1 to n in this order.
   */
  | { type: 'ferry-stripe'; lanes: number[] }
  /** Receiver to sender: frames handed on so far, and bytes arrived per lane (0 = the first). */
  | { type: 'ferry-lane-ack'; next: number; received: number[] };

const LANE_NUMBER = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LANES_MAX - 1));

const LANE_SIGNAL = v.object({
  type: v.literal('ferry-lane'),
  lane: LANE_NUMBER,
  signal: v.unknown(),
  probe: v.optional(v.literal(true)),
});

const STRIPE = v.object({
  type: v.literal('ferry-stripe'),
  lanes: v.pipe(
    v.array(LANE_NUMBER),
    v.minLength(1),
    v.maxLength(LANES_MAX - 1),
    v.check((lanes) => new Set(lanes).size === lanes.length, 'a lane is listed twice'),
  ),
});

const COUNT = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

const ACK = v.object({
  type: v.literal('ferry-lane-ack'),
  next: COUNT,
  received: v.pipe(v.array(COUNT), v.minLength(1), v.maxLength(LANES_MAX)),
});

// A cheap test before any parsing: a data frame of the session never starts like this.
const LANE_PREFIX = /^\{\s*"type"\s*:\s*"ferry-(lane|stripe|lane-ack)"/;

/**
 * The lane message in `frame`; `undefined` when the frame is not one (it belongs to the session),
 * `'invalid'` when it claims to be one and is not.
 */
export function readLaneMessage(frame: Frame): LaneMessage | 'invalid' | undefined {
  if (frame.kind !== 'text' || !LANE_PREFIX.test(frame.text)) return undefined;
  if (utf8ByteLength(frame.text, LANE_MESSAGE_MAX_BYTES) > LANE_MESSAGE_MAX_BYTES) return 'invalid';
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame.text);
  } catch {
    return 'invalid';
  }
  const stripe = v.safeParse(STRIPE, parsed);
  if (stripe.success) return stripe.output;
  const ack = v.safeParse(ACK, parsed);
  if (ack.success) return ack.output;
  const lane = v.safeParse(LANE_SIGNAL, parsed);
  if (!lane.success) return 'invalid';
  const signal = decodeSignal(lane.output.signal);
  if (signal === undefined) return 'invalid';
  const { lane: number, probe } = lane.output;
  return { type: 'ferry-lane', lane: number, signal, ...(probe && { probe }) };
}

/** One negotiation payload of lane `lane`; `probe` only on a probing lane's offer. */
export function laneSignalFrame(lane: number, signal: NegotiationSignal, probe = false): Frame {
  const message = {
    type: 'ferry-lane',
    lane,
    signal: encodeSignal(signal),
    ...(probe && { probe }),
  };
  return textFrame(JSON.stringify(message));
}

export function stripeFrame(lanes: readonly number[]): Frame {
  return textFrame(JSON.stringify({ type: 'ferry-stripe', lanes }));
}

export function laneAckFrame(next: number, received: readonly number[]): Frame {
  return textFrame(JSON.stringify({ type: 'ferry-lane-ack', next, received }));
}
