import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';

/** What travels in a `signal`: one SDP description or one trickled ICE candidate. */
export type SignalMessage =
  | { kind: 'description'; description: RTCSessionDescriptionInit & { sdp: string } }
  | { kind: 'candidate'; candidate: RTCIceCandidateInit & { candidate: string } };

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The wire form every Ferry peer relays: a description as `{ type, sdp }`, a candidate as
 * `{ type: 'candidate', candidate: { candidate, sdpMid, sdpMLineIndex } }`.
 */
export function encodeSignal(message: SignalMessage): SignalPayload {
  if (message.kind === 'description') {
    return { type: message.description.type, sdp: message.description.sdp };
  }
  const { candidate, sdpMid = null, sdpMLineIndex = null } = message.candidate;
  return { type: 'candidate', candidate: { candidate, sdpMid, sdpMLineIndex } };
}

function readDescription(fields: Fields): SignalMessage | undefined {
  const { type, sdp } = fields;
  if ((type !== 'offer' && type !== 'answer') || typeof sdp !== 'string') return undefined;
  return { kind: 'description', description: { type, sdp } };
}

/** A candidate line with or without its `a=` prefix, and its m-line by mid or by index. */
function readCandidate(line: unknown, where: Fields): SignalMessage | undefined {
  if (typeof line !== 'string') return undefined;
  const candidate = line.startsWith('a=') ? line.slice(2) : line;
  // An empty candidate marks the end of gathering, which trickle ICE does not need relayed.
  if (candidate.trim() === '') return undefined;
  const mid = where.sdpMid ?? where.mid;
  const index = where.sdpMLineIndex;
  const init: RTCIceCandidateInit & { candidate: string } = { candidate };
  if (typeof mid === 'string') init.sdpMid = mid;
  if (typeof index === 'number' && Number.isInteger(index) && index >= 0) {
    init.sdpMLineIndex = index;
  }
  // Ferry negotiates one m-line, the data channel's; a candidate naming neither belongs to it.
  if (init.sdpMid === undefined && init.sdpMLineIndex === undefined) init.sdpMLineIndex = 0;
  return { kind: 'candidate', candidate: init };
}

/**
 * Reads what the other peer relayed. Besides Ferry's own form it accepts the shapes other WebRTC
 * stacks produce (a flat RTCIceCandidateInit, node-datachannel's `mid`, a description nested
 * under `sdp`), because the server never looks inside and the spec leaves the payload open.
 * Anything else is undefined and is ignored.
 */
export function decodeSignal(payload: SignalPayload): SignalMessage | undefined {
  if (!isObject(payload)) return undefined;
  if (isObject(payload.sdp)) return readDescription(payload.sdp);
  if (payload.type === 'offer' || payload.type === 'answer') return readDescription(payload);
  const { candidate } = payload;
  if (isObject(candidate)) return readCandidate(candidate.candidate, candidate);
  if (candidate !== undefined) return readCandidate(candidate, payload);
  return undefined;
}
