import type { PeerRole } from '../../../src-shared/signaling/peer-role';
import type { PeerAddress } from './peer-address';

/** A joiner that was in another room leaves it first, whether or not it finds a seat. */
export type JoinOutcome =
  | {
      kind: 'joined';
      role: PeerRole;
      /** Who was already in the room. */
      others: PeerAddress[];
      left?: Departure;
    }
  | { kind: 'full'; left?: Departure }
  /** The peer was in this room already: its role as it stands now. */
  | { kind: 'rejoined'; role: PeerRole };

/** A room as one peer finds it: everyone in it, that peer included, in joining order. */
export interface Room {
  id: string;
  peers: PeerAddress[];
}

export interface Departure {
  roomId: string;
  remaining: PeerAddress[];
}

/**
 * Room id to the addresses of at most two peers, shared by both transports. Asynchronous because
 * in a cluster the rooms live in Redis, shared by every server.
 */
export interface RoomRegistry {
  /**
   * Seats the peer unless the room is full, in one step with leaving its previous room; two
   * racing joins never seat three.
   */
  join(roomId: string, peer: PeerAddress): Promise<JoinOutcome>;
  /** Removes the peer from its room, if any; an emptied room is forgotten. */
  leave(peerId: string): Promise<Departure | undefined>;
  roomOf(peerId: string): Promise<Room | undefined>;
}
