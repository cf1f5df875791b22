import * as v from 'valibot';
import type { SignalPayload } from '../signaling/signal-payload';

/**
 * One WebRTC negotiation payload as the session core handles it. `attempt` numbers Ferry's
 * connection attempts (docs/protocol.md, "Setup retry"); a payload without it belongs to whatever
 * attempt is current, which is how a spec-only peer's payloads are read.
 */
export type NegotiationSignal =
  | { type: 'offer' | 'answer'; sdp: string; attempt?: number }
  | {
      type: 'candidate';
      candidate: { candidate: string; sdpMid?: string; sdpMLineIndex?: number };
      attempt?: number;
    };

type Fields = Record<string, unknown>;

// Hand-written: valibot's object schemas take an array for an object, which would change how a
// payload whose `sdp` is an array is read.
const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const DESCRIPTION = v.object({ type: v.picklist(['offer', 'answer']), sdp: v.string() });
/** A candidate line with or without its `a=` prefix. */
const CANDIDATE_LINE = v.pipe(
  v.string(),
  v.transform((line) => (line.startsWith('a=') ? line.slice(2) : line)),
  // An empty candidate marks the end of gathering, which trickle ICE does not need relayed.
  v.check((line) => line.trim() !== ''),
);
const MID = v.pipe(v.string(), v.nonEmpty());
const M_LINE_INDEX = v.pipe(v.number(), v.integer(), v.minValue(0));
const ATTEMPT = v.pipe(v.number(), v.safeInteger(), v.minValue(1));

const attemptOf = ({ attempt }: Fields): { attempt?: number } =>
  v.is(ATTEMPT, attempt) ? { attempt } : {};

/**
 * The wire form every Ferry peer relays: a description as `{ type, sdp }`, a candidate as
 * `{ type: 'candidate', candidate: { candidate, sdpMid, sdpMLineIndex } }` (the shapes a browser's
 * RTCPeerConnection produces), plus `attempt`.
 */
export function encodeSignal(signal: NegotiationSignal): SignalPayload {
  const attempt = signal.attempt === undefined ? {} : { attempt: signal.attempt };
  if (signal.type !== 'candidate') return { type: signal.type, sdp: signal.sdp, ...attempt };
  const { candidate, sdpMid, sdpMLineIndex } = signal.candidate;
  return {
    type: 'candidate',
    candidate: {
      candidate,
      ...(sdpMid === undefined ? {} : { sdpMid }),
      ...(sdpMLineIndex === undefined ? {} : { sdpMLineIndex }),
    },
    ...attempt,
  };
}

function readDescription(fields: unknown, outer: Fields): NegotiationSignal | undefined {
  const read = v.safeParse(DESCRIPTION, fields);
  return read.success ? { ...read.output, ...attemptOf(outer) } : undefined;
}

/** A candidate and its m-line by mid or by index; a mid or index of the wrong kind is left out. */
function readCandidate(line: unknown, where: Fields, outer: Fields): NegotiationSignal | undefined {
  const read = v.safeParse(CANDIDATE_LINE, line);
  if (!read.success) return undefined;
  // The first name present wins, even when its value is unusable.
  const mid = where.sdpMid ?? where.mid;
  const index = where.sdpMLineIndex ?? where.mLineIndex;
  const candidate = {
    candidate: read.output,
    ...(v.is(MID, mid) ? { sdpMid: mid } : {}),
    ...(v.is(M_LINE_INDEX, index) ? { sdpMLineIndex: index } : {}),
  };
  return { type: 'candidate', candidate, ...attemptOf(outer) };
}

/**
 * Reads what the other peer relayed. Besides Ferry's own form it accepts every shape a spec peer
 * may send, since the spec leaves the payload open: a flat RTCIceCandidateInit, node-datachannel's
 * `mid`, `sdpMLineIndex` alone, a description nested under `sdp`, a candidate line with `a=`.
 * Anything else, an end-of-candidates marker included, is undefined and ignored.
 */
export function decodeSignal(payload: SignalPayload): NegotiationSignal | undefined {
  if (!isObject(payload)) return undefined;
  if (isObject(payload.sdp)) return readDescription(payload.sdp, payload);
  if (payload.type === 'offer' || payload.type === 'answer') {
    return readDescription(payload, payload);
  }
  const { candidate } = payload;
  if (isObject(candidate)) return readCandidate(candidate.candidate, candidate, payload);
  if (candidate !== undefined) return readCandidate(candidate, payload, payload);
  return undefined;
}

/**
 * The mid of the data channel's m-line in `sdp`, for a candidate that names its m-line by index
 * or not at all: Ferry negotiates that one m-line only, and node-datachannel needs a mid.
 */
export function dataChannelMid(sdp: string, mLineIndex = 0): string | undefined {
  let section = -1;
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) section += 1;
    else if (section === mLineIndex && line.startsWith('a=mid:')) return line.slice(6).trim();
  }
  return undefined;
}
