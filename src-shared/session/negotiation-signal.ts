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

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const attemptOf = (fields: Fields): { attempt?: number } =>
  typeof fields.attempt === 'number' && Number.isSafeInteger(fields.attempt) && fields.attempt > 0
    ? { attempt: fields.attempt }
    : {};

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

function readDescription(fields: Fields, outer: Fields): NegotiationSignal | undefined {
  const { type, sdp } = fields;
  if ((type !== 'offer' && type !== 'answer') || typeof sdp !== 'string') return undefined;
  return { type, sdp, ...attemptOf(outer) };
}

/** A candidate line with or without its `a=` prefix, and its m-line by mid or by index. */
function readCandidate(line: unknown, where: Fields, outer: Fields): NegotiationSignal | undefined {
  if (typeof line !== 'string') return undefined;
  const candidate = line.startsWith('a=') ? line.slice(2) : line;
  // An empty candidate marks the end of gathering, which trickle ICE does not need relayed.
  if (candidate.trim() === '') return undefined;
  const mid = where.sdpMid ?? where.mid;
  const index = where.sdpMLineIndex ?? where.mLineIndex;
  const init: { candidate: string; sdpMid?: string; sdpMLineIndex?: number } = { candidate };
  if (typeof mid === 'string' && mid !== '') init.sdpMid = mid;
  if (typeof index === 'number' && Number.isInteger(index) && index >= 0) {
    init.sdpMLineIndex = index;
  }
  return { type: 'candidate', candidate: init, ...attemptOf(outer) };
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
