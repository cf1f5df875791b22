/**
 * The payload a Ferry peer puts in a signaling `signal` message. The server relays it untouched,
 * so its shape is an agreement between peers: a session description is RTCSessionDescriptionInit
 * and a candidate wraps RTCIceCandidateInit, the forms a browser's RTCPeerConnection produces and
 * accepts, so native and browser peers understand each other.
 */
export type NegotiationSignal =
  | { type: 'offer' | 'answer'; sdp: string }
  | { type: 'candidate'; candidate: { candidate: string; sdpMid: string } };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a relayed payload; anything else (an end-of-candidates marker included) is undefined. */
export function readNegotiationSignal(value: unknown): NegotiationSignal | undefined {
  if (!isObject(value)) return undefined;
  if ((value.type === 'offer' || value.type === 'answer') && typeof value.sdp === 'string') {
    return { type: value.type, sdp: value.sdp };
  }
  // Browsers send the candidate object either wrapped or as RTCIceCandidate.toJSON() itself.
  const init = isObject(value.candidate) ? value.candidate : value;
  const candidate = init.candidate;
  if (typeof candidate !== 'string' || candidate === '') return undefined;
  const sdpMid = typeof init.sdpMid === 'string' ? init.sdpMid : '0';
  return { type: 'candidate', candidate: { candidate, sdpMid } };
}
