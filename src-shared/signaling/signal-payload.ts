/**
 * A WebRTC negotiation payload (an SDP description or an ICE candidate). The server relays it
 * untouched and never looks inside, so its structure belongs to the peers.
 */
export type SignalPayload = unknown;
