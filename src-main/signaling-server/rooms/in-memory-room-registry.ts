import { ROOM_CAPACITY } from '../../../src-shared/signaling/limits';
import type { Departure, JoinOutcome, RoomRegistry } from './room-registry';

export class InMemoryRoomRegistry implements RoomRegistry {
  private readonly rooms = new Map<string, string[]>();
  private readonly roomByPeer = new Map<string, string>();

  async join(roomId: string, peerId: string): Promise<JoinOutcome> {
    const peers = this.rooms.get(roomId) ?? [];
    if (peers.length >= ROOM_CAPACITY) return { kind: 'full' };
    const others = [...peers];
    peers.push(peerId);
    this.rooms.set(roomId, peers);
    this.roomByPeer.set(peerId, roomId);
    // Position decides the role, as the spec's table has it: the second peer present is the receiver.
    return { kind: 'joined', role: others.length === 0 ? 'sender' : 'receiver', others };
  }

  async leave(peerId: string): Promise<Departure | undefined> {
    const roomId = this.roomByPeer.get(peerId);
    if (roomId === undefined) return undefined;
    this.roomByPeer.delete(peerId);
    const remaining = (this.rooms.get(roomId) ?? []).filter((id) => id !== peerId);
    if (remaining.length === 0) this.rooms.delete(roomId);
    else this.rooms.set(roomId, remaining);
    return { roomId, remaining };
  }

  async roomOf(peerId: string): Promise<string | undefined> {
    return this.roomByPeer.get(peerId);
  }

  async peersIn(roomId: string): Promise<string[]> {
    return [...(this.rooms.get(roomId) ?? [])];
  }
}
