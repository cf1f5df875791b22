import type { PeerRole } from '../../../src-shared/signaling/peer-role';

export type JoinOutcome =
  | { kind: 'joined'; role: PeerRole; /** Who was already in the room. */ others: string[] }
  | { kind: 'full' };

export interface Departure {
  roomId: string;
  remaining: string[];
}

/**
 * Room id to the ids of at most two peers, shared by both transports. Asynchronous so that a
 * shared store can stand behind it when several servers share the rooms.
 */
export interface RoomRegistry {
  join(roomId: string, peerId: string): Promise<JoinOutcome>;
  /** Removes the peer from its room, if any; an emptied room is forgotten. */
  leave(peerId: string): Promise<Departure | undefined>;
  roomOf(peerId: string): Promise<string | undefined>;
  peersIn(roomId: string): Promise<string[]>;
}
