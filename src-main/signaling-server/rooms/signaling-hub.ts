import { HTTP_ERROR } from '../../../src-shared/signaling/http-api';
import { SIGNALING_ERROR } from '../../../src-shared/signaling/signaling-errors';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import type { LogSink } from '../log-sink';
import type { PeerEvent, PeerLink } from './peer-event';
import type { RoomRegistry } from './room-registry';

export interface SignalRequest {
  signal: SignalPayload;
  target?: string;
  roomId?: string;
}

/**
 * The room logic of the spec, once for both transports: roles, user-connected, room-full, signal
 * relay and peer-disconnected. Transports validate the shape of what arrives and hand it here.
 */
export class SignalingHub {
  private readonly links = new Map<string, PeerLink>();

  constructor(
    private readonly registry: RoomRegistry,
    private readonly log: LogSink,
  ) {}

  connect(link: PeerLink): PeerSession {
    this.links.set(link.id, link);
    return new PeerSession(link, this);
  }

  private deliver(peerId: string, event: PeerEvent): void {
    this.links.get(peerId)?.deliver(event);
  }

  async join(link: PeerLink, roomId: string): Promise<void> {
    // UUIDs are case-insensitive, so a room is too: peers that spell the id differently still meet.
    const room = roomId.toLowerCase();
    const current = await this.registry.roomOf(link.id);
    if (current === room) {
      const peers = await this.registry.peersIn(room);
      link.deliver({ type: 'room-joined', role: peers[0] === link.id ? 'sender' : 'receiver' });
      return;
    }
    if (current !== undefined) await this.leave(link.id);
    const outcome = await this.registry.join(room, link.id);
    if (outcome.kind === 'full') {
      link.deliver({ type: 'room-full' });
      return;
    }
    link.deliver({ type: 'room-joined', role: outcome.role });
    if (outcome.role === 'receiver') {
      for (const other of outcome.others) {
        this.deliver(other, { type: 'user-connected', peerId: link.id });
      }
    }
  }

  async signal(link: PeerLink, request: SignalRequest): Promise<void> {
    const room = await this.registry.roomOf(link.id);
    if (room === undefined) {
      link.deliver({ type: 'error', message: SIGNALING_ERROR.notInRoom });
      return;
    }
    if (request.roomId !== undefined && request.roomId.toLowerCase() !== room) {
      link.deliver({ type: 'error', message: SIGNALING_ERROR.roomMismatch });
      return;
    }
    const others = (await this.registry.peersIn(room)).filter((id) => id !== link.id);
    if (request.target !== undefined && !others.includes(request.target)) {
      link.deliver({ type: 'error', message: SIGNALING_ERROR.unknownTarget });
      return;
    }
    const event: PeerEvent = { type: 'signal', signal: request.signal, sender: link.id };
    for (const other of request.target === undefined ? others : [request.target]) {
      this.deliver(other, event);
    }
  }

  async disconnect(link: PeerLink): Promise<void> {
    this.links.delete(link.id);
    await this.leave(link.id);
  }

  private async leave(peerId: string): Promise<void> {
    const departure = await this.registry.leave(peerId);
    for (const other of departure?.remaining ?? []) {
      this.deliver(other, { type: 'peer-disconnected' });
    }
  }

  /** A failure inside the hub reaches the peer as an `error`, and its stack only the server log. */
  fail(link: PeerLink, error: unknown): void {
    this.log.error(
      `Signaling failed for peer ${link.id}: ${error instanceof Error ? error.stack : String(error)}`,
    );
    link.deliver({ type: 'error', message: HTTP_ERROR.internal });
  }
}

/**
 * One peer's conversation with the hub. Its messages are handled strictly in arrival order, so a
 * signal sent right after join-room finds the room joined even when the registry is remote.
 */
export class PeerSession {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly link: PeerLink,
    private readonly hub: SignalingHub,
  ) {}

  join(roomId: string): void {
    this.enqueue(() => this.hub.join(this.link, roomId));
  }

  signal(request: SignalRequest): void {
    this.enqueue(() => this.hub.signal(this.link, request));
  }

  disconnect(): void {
    this.enqueue(() => this.hub.disconnect(this.link));
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => this.hub.fail(this.link, error));
  }
}
