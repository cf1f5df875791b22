import { ROOM_CAPACITY } from '../../../src-shared/signaling/limits';
import type { PeerAddress } from './peer-address';
import type { Departure, JoinOutcome, Room, RoomRegistry } from './room-registry';

/** The registry of a single server (and of the desktop app's embedded one). */
export class InMemoryRoomRegistry implements RoomRegistry {
  private readonly rooms = new Map<string, PeerAddress[]>();
  private readonly roomByPeer = new Map<string, string>();

  async join(roomId: string, peer: PeerAddress): Promise<JoinOutcome> {
    const current = this.roomByPeer.get(peer.id);
    if (current === roomId) {
      return {
        kind: 'rejoined',
        role: this.rooms.get(roomId)?.[0]?.id === peer.id ? 'sender' : 'receiver',
      };
    }
    const left = await this.leave(peer.id);
    const peers = this.rooms.get(roomId) ?? [];
    if (peers.length >= ROOM_CAPACITY) return { kind: 'full', left };
    const others = [...peers];
    peers.push(peer);
    this.rooms.set(roomId, peers);
    this.roomByPeer.set(peer.id, roomId);
    // Position decides the role, as the spec's table has it: the second peer present is the receiver.
    return { kind: 'joined', role: others.length === 0 ? 'sender' : 'receiver', others, left };
  }

  async leave(peerId: string): Promise<Departure | undefined> {
    const roomId = this.roomByPeer.get(peerId);
    if (roomId === undefined) return undefined;
    this.roomByPeer.delete(peerId);
    const remaining = (this.rooms.get(roomId) ?? []).filter((peer) => peer.id !== peerId);
    if (remaining.length === 0) this.rooms.delete(roomId);
    else this.rooms.set(roomId, remaining);
    return { roomId, remaining };
  }

  async roomOf(peerId: string): Promise<Room | undefined> {
    const roomId = this.roomByPeer.get(peerId);
    if (roomId === undefined) return undefined;
    return { id: roomId, peers: [...(this.rooms.get(roomId) ?? [])] };
  }
}
