// The signal payload. The signaling spec leaves its structure open ("Internal structure of the
// signal payload: not shown"), so this peer uses the W3C dictionaries every WebRTC stack knows:
// RTCSessionDescriptionInit `{ type, sdp }` and RTCIceCandidateInit `{ candidate, sdpMid,
// sdpMLineIndex }`. It reads a candidate bare or wrapped in a `candidate` field (how an
// RTCPeerConnectionIceEvent's candidate is commonly relayed), ignores fields it does not know,
// and refuses anything that is neither a description nor a candidate.
import { violation } from './failure';
import { ANSWER_MAX_MESSAGE_SIZE_BYTES } from './limits';

export interface CandidateInit {
  candidate: string;
  sdpMid?: string;
  sdpMLineIndex?: number;
}

export type SignalPayload =
  | { kind: 'description'; type: 'offer' | 'answer'; sdp: string }
  | { kind: 'candidate'; candidate: CandidateInit }
  /** The end of gathering: an empty candidate, which trickle ICE does not need. */
  | { kind: 'end-of-candidates' };

export function encodeDescription(type: 'offer' | 'answer', sdp: string): object {
  return { type, sdp };
}

export function encodeCandidate(candidate: CandidateInit): object {
  return candidate;
}

export function decodeSignal(payload: unknown): SignalPayload {
  if (!isRecord(payload)) throw violation(`a signal payload is not an object: ${show(payload)}`);
  if (payload.type === 'offer' || payload.type === 'answer') {
    if (typeof payload.sdp !== 'string' || payload.sdp === '') {
      throw violation(`a ${payload.type} without its sdp: ${show(payload)}`);
    }
    return { kind: 'description', type: payload.type, sdp: payload.sdp };
  }
  const init = isRecord(payload.candidate) ? payload.candidate : payload;
  if (init.candidate === null || init.candidate === '') return { kind: 'end-of-candidates' };
  if (typeof init.candidate !== 'string') {
    throw violation(`a signal payload is neither a description nor a candidate: ${show(payload)}`);
  }
  const candidate: CandidateInit = { candidate: init.candidate.replace(/^a=/, '') };
  if (typeof init.sdpMid === 'string' && init.sdpMid !== '') candidate.sdpMid = init.sdpMid;
  if (typeof init.sdpMLineIndex === 'number') candidate.sdpMLineIndex = init.sdpMLineIndex;
  if (candidate.sdpMid === undefined && candidate.sdpMLineIndex === undefined) {
    throw violation(`a candidate names neither its sdpMid nor its sdpMLineIndex: ${show(payload)}`);
  }
  return { kind: 'candidate', candidate };
}

/** The mid a candidate belongs to, from its own field or by its m-line's place in `sdp`. */
export function candidateMid(candidate: CandidateInit, sdp: string): string {
  if (candidate.sdpMid !== undefined) return candidate.sdpMid;
  let section = -1;
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) section += 1;
    else if (section === candidate.sdpMLineIndex && line.startsWith('a=mid:')) {
      return line.slice('a=mid:'.length).trim();
    }
  }
  throw violation(`candidate m-line ${candidate.sdpMLineIndex} is not in the remote description`);
}

/**
 * Data-channel spec, "Connection requirement": a native answer carries a maximum message size
 * of 1 GB. Added to the application m-section when missing, raised to 1 GB when present.
 */
export function withAnswerMaxMessageSize(sdp: string): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(/\r?\n/);
  const trailing = lines.at(-1) === '' ? lines.pop() : undefined;
  const attribute = `a=max-message-size:${ANSWER_MAX_MESSAGE_SIZE_BYTES}`;
  const out: string[] = [];
  let inApplication = false;
  let present = false;
  const endSection = (): void => {
    if (inApplication && !present) out.push(attribute);
  };
  for (const line of lines) {
    if (line.startsWith('m=')) {
      endSection();
      inApplication = line.startsWith('m=application');
      present = false;
    }
    if (inApplication && line.startsWith('a=max-message-size:')) {
      present = true;
      out.push(attribute);
    } else out.push(line);
  }
  endSection();
  if (trailing !== undefined) out.push(trailing);
  return out.join(eol);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The place of the m-section whose mid is `mid` in `sdp`, for a candidate's sdpMLineIndex. */
export function mLineIndexOf(mid: string, sdp: string): number | undefined {
  let section = -1;
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) section += 1;
    else if (section >= 0 && line === `a=mid:${mid}`) return section;
  }
  return undefined;
}
