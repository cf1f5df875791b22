import type { SpecChannel, FrameInbox } from './channel';
import type { Tripwire } from './failure';
import type { CandidateInit } from './signal-payload';

/**
 * What the signaling server told this peer, the same for both transports (signaling spec,
 * "Events"): the adapters check each message's shape and translate it into one of these.
 */
export type SeatEvent =
  | { type: 'room-joined'; role: 'sender' | 'receiver' }
  | { type: 'user-connected' }
  | { type: 'signal'; signal: unknown }
  | { type: 'peer-disconnected' }
  | { type: 'room-full' }
  | { type: 'error'; message: string }
  | { type: 'pong' }
  /** The transport itself closed. */
  | { type: 'closed'; why: string };

/** This peer's place in a room, on the event socket or the WebSocket. */
export interface RoomSeat {
  join(roomId: string): void;
  signal(payload: object, roomId: string): void;
  /** Leaves the room by closing the transport. */
  leave(): void;
}

/**
 * Connects to `serverUrl` and hands every server message to `listener` synchronously, in
 * order, the moment it arrives: the sender's offer must go out in the same turn as
 * user-connected.
 */
export type SeatFactory = (
  serverUrl: string,
  listener: (event: SeatEvent) => void,
  tripwire: Tripwire,
) => Promise<RoomSeat>;

export interface PeerEvents {
  localDescription(type: 'offer' | 'answer', sdp: string): void;
  localCandidate(candidate: CandidateInit): void;
  /** The data channel is open; its frames have been collected in the peer's inbox all along. */
  channelOpen(channel: SpecChannel): void;
  /** A state change worth a line in the trace. */
  note(step: string): void;
  /** ICE or DTLS failed, or the stack closed the connection. */
  connectionFailed(why: string): void;
}

/** One RTCPeerConnection-like object with its one data channel. */
export interface PeerPort {
  /** Every frame of the data channel, from the moment the channel object exists. */
  readonly inbox: FrameInbox;
  /**
   * Settles once the other side provably has everything this side sent before closing the data
   * channel, so the connection may go. What proves it depends on the stack (see the adapters).
   */
  readonly landed: Promise<void>;
  /** Offerer: creates the data channel and the offer (delivered as a local description). */
  offer(): void;
  /** Sets the remote description; an answerer then produces its answer as a local description. */
  acceptRemote(type: 'offer' | 'answer', sdp: string): Promise<void>;
  /**
   * Resolves with undefined once the stack took the candidate, or with its reason for refusing
   * it (an mDNS name node-datachannel cannot resolve, for one).
   */
  addCandidate(candidate: CandidateInit, mid: string): Promise<string | undefined>;
  close(): void;
}

export type PeerFactory = (events: PeerEvents, tripwire: Tripwire) => PeerPort;
