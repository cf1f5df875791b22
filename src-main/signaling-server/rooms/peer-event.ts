import type { PeerRole } from '../../../src-shared/signaling/peer-role';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import type { PeerTransport } from './peer-address';

/** What the hub tells one peer, before its transport puts it in that transport's wire form. */
export type PeerEvent =
  | { type: 'room-joined'; role: PeerRole }
  | { type: 'user-connected'; peerId: string }
  | { type: 'signal'; signal: SignalPayload; sender: string }
  | { type: 'peer-disconnected' }
  | { type: 'room-full' }
  | { type: 'error'; message: string };

/** One peer connected to this server, as the hub sees it, whatever its transport. */
export interface PeerLink {
  readonly id: string;
  readonly transport: PeerTransport;
  deliver(event: PeerEvent): void;
  /** Ends the connection, so that the peer starts over: the server lost track of its room. */
  drop(): void;
}
