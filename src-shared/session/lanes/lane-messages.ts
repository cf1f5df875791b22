import * as v from 'valibot';
import { textFrame, utf8ByteLength, type Frame } from '../../protocol/frame';
import { decodeSignal, encodeSignal, type NegotiationSignal } from '../negotiation-signal';
import { LANES_MAX, LANE_MESSAGE_MAX_BYTES } from '../session-limits';

/**
 * The two messages of the `lanes` extension (docs/protocol.md, "Lanes"), text frames on the first
 * connection. They are read by the lane bond before the session core sees a frame.
 */
export type LaneMessage =
  /** Either way: one negotiation payload of extra lane `lane` (1 to LANES_MAX − 1). */
  | { type: 'ferry-lane'; lane: number; signal: NegotiationSignal }
  /**
   * Sender to receiver: every later frame of the sender goes round-robin over the first
   * connection and then these lanes, in this order.
   */
  | { type: 'ferry-stripe'; lanes: number[] };

const LANE_NUMBER = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LANES_MAX - 1));

const LANE_SIGNAL = v.object({
  type: v.literal('ferry-lane'),
  lane: LANE_NUMBER,
  signal: v.unknown(),
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

// A cheap test before any parsing: a data frame of the session never starts like this.
const LANE_PREFIX = /^\{\s*"type"\s*:\s*"ferry-(lane|stripe)"/;

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
  const lane = v.safeParse(LANE_SIGNAL, parsed);
  if (!lane.success) return 'invalid';
  const signal = decodeSignal(lane.output.signal);
  return signal === undefined ? 'invalid' : { type: 'ferry-lane', lane: lane.output.lane, signal };
}

export function laneSignalFrame(lane: number, signal: NegotiationSignal): Frame {
  return textFrame(JSON.stringify({ type: 'ferry-lane', lane, signal: encodeSignal(signal) }));
}

export function stripeFrame(lanes: readonly number[]): Frame {
  return textFrame(JSON.stringify({ type: 'ferry-stripe', lanes }));
}
