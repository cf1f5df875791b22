// The ports the session core is written against (docs/architecture.md, "Ports and adapters").
// Each runtime implements them once, by translation only: node-datachannel, ws and fs for the
// native peers; RTCPeerConnection, socket.io and File / folder access / downloads in a browser.
import type { Frame } from '../protocol/frame';
import type { Failure } from '../protocol/error-codes';
import type { PeerRole } from '../signaling/peer-role';
import type { SignalPayload } from '../signaling/signal-payload';
import type { PeerFingerprints } from '../verify/sas';
import type { NegotiationSignal } from './negotiation-signal';

/** A running timeout; `refresh` restarts it with its first duration. */
export interface ClockTimer {
  cancel(): void;
  refresh(): void;
}

/** The only clock the core reads: it touches no global timer, so tests can drive it by hand. */
export interface Clock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  setTimeout(callback: () => void, ms: number): ClockTimer;
}

export interface ChannelHandlers {
  frame?(frame: Frame): void;
  /** The send buffer fell to the low threshold or below. */
  bufferedAmountLow?(): void;
  /** The channel or its connection ended, whoever ended it; reported once. */
  closed?(reason: string): void;
}

/** One open data channel and the connection under it, both alive as long as the port is. */
export interface ChannelPort {
  /** Sends a frame in its own framing (text or binary); false when the channel is gone. */
  send(frame: Frame): boolean;
  bufferedAmount(): number;
  setBufferedAmountLowThreshold(bytes: number): void;
  /** The negotiated largest message in bytes; 0 when the connection does not know it. */
  maxMessageSize(): number;
  /** Whether the selected route runs through a TURN relay. */
  relayed(): Promise<boolean>;
  /**
   * The connection's smoothed round trip in milliseconds, as its transport measured it; undefined
   * when it has no measurement (or the stack does not tell).
   */
  roundTripMs?(): number | undefined;
  /**
   * The connection's two DTLS certificates as this side sees them, normalized (verify/sas.ts):
   * its own, and the one DTLS verified. Undefined when the stack cannot tell; then this side
   * offers no verification words.
   */
  fingerprints(): PeerFingerprints | undefined;
  readonly isClosed: boolean;
  /** Adds listeners; the returned function removes them. */
  listen(handlers: ChannelHandlers): () => void;
  /**
   * Closes the channel, then the connection: at once when the peer already closed its side,
   * otherwise once the peer confirms (everything queued before the close has then landed) or
   * after `graceMs`.
   */
  close(graceMs: number): void;
  /** Settles once the native resources are let go. */
  readonly released: Promise<void>;
}

/** What the signaling server tells a peer once it is in a room. */
export type SignalingEvent =
  | { type: 'user-connected' }
  | { type: 'signal'; payload: SignalPayload }
  | { type: 'peer-disconnected' }
  /** The socket ended or the server reported an error. */
  | { type: 'lost'; failure: Failure };

/**
 * A seat in one signaling room. Events are kept from the moment the socket opens until someone
 * listens (signal-inbox.ts), so a signal that arrives together with the role is never lost.
 */
export interface SignalingPort {
  readonly role: PeerRole;
  signal(payload: SignalPayload): void;
  /** Every event not yet delivered, then every later one, until the returned function is called. */
  listen(listener: (event: SignalingEvent) => void): () => void;
  /** Leaves the room for good. */
  close(): void;
}

export interface PeerConnectionHandlers {
  /** A description or candidate of this side, for the other peer. */
  signal?(signal: NegotiationSignal): void;
  /** ICE and DTLS are up; the data channel should follow. */
  connected?(): void;
  /** The data channel is open; from now on it is the transfer's. */
  open?(channel: ChannelPort): void;
  /** This connection cannot succeed any more (ICE or DTLS failed, or it closed). */
  failed?(reason: string): void;
}

/**
 * One attempt at a WebRTC connection with a single data channel. An offerer creates the channel
 * and produces its offer by itself; an answerer produces its answer once the offer is set.
 */
export interface PeerConnectionPort {
  listen(handlers: PeerConnectionHandlers): () => void;
  /** Rejects when the stack refuses the description. */
  setRemoteDescription(description: { type: 'offer' | 'answer'; sdp: string }): Promise<void>;
  /** Rejects when the stack refuses the candidate; one bad candidate costs only its route. */
  addRemoteCandidate(candidate: {
    candidate: string;
    sdpMid: string;
    sdpMLineIndex: number;
  }): Promise<void>;
  /** Abandons the attempt and lets its resources go; no handler is called afterwards. */
  close(): void;
}

/**
 * The label of a connection's one in-band channel, which the offerer opens (docs/protocol.md,
 * "Connection requirement"). The specification names none, and an answerer takes whatever channel
 * arrives, so the label is only what a peer's stack shows of it.
 */
export const DATA_CHANNEL_LABEL = 'ferry';

/**
 * A data channel both ends create with the same label and stream id, negotiated out of band
 * (RFC 8832 is skipped): each end's channel opens as soon as the SCTP association is up, a round
 * trip before an in-band channel's would at its opener. Only the lanes use one (docs/protocol.md,
 * "Lanes"); a first connection always has the specification's in-band channel.
 */
export interface NegotiatedChannel {
  label: string;
  id: number;
}

/**
 * Makes one connection attempt. Without `negotiated`, the offerer opens the specification's
 * in-band channel and the answerer takes the one that arrives; with it, both ends create that
 * channel themselves.
 */
export type PeerConnectionFactory = (
  role: 'offerer' | 'answerer',
  negotiated?: NegotiatedChannel,
) => PeerConnectionPort;

/** Where a batch's ICE configuration comes from, as each runtime obtains it. */
export interface RouteChoice {
  /** Makes one connection attempt with this route's ICE configuration. */
  createPeer: PeerConnectionFactory;
}
