import { HTTP_ERROR } from '../../../src-shared/signaling/http-api';
import { SIGNALING_ERROR } from '../../../src-shared/signaling/signaling-errors';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import type { LogSink } from '../log-sink';
import type { PeerAddress, PeerTransport } from './peer-address';
import type { PeerEvent, PeerLink } from './peer-event';
import type { PeerRelay } from './peer-relay';
import type { RoomRegistry } from './room-registry';

export interface SignalRequest {
  signal: SignalPayload;
  target?: string;
  roomId?: string;
}

/**
 * The room logic of the spec, once for both transports: roles, user-connected, room-full, signal
 * relay and peer-disconnected. Transports validate the shape of what arrives and hand it here.
 * The peers of a room may sit on different servers of a cluster: events for a peer connected
 * elsewhere go through the relay of its transport.
 */
export class SignalingHub {
  private readonly sessions = new Map<string, PeerSession>();
  private readonly relays = new Map<PeerTransport, PeerRelay>();
  private closing = false;

  constructor(
    private readonly registry: RoomRegistry,
    /** This server's instance id, which the addresses of its own peers carry. */
    private readonly instance: string,
    private readonly log: LogSink,
  ) {}

  connect(link: PeerLink): PeerSession {
    const session = new PeerSession(link, this);
    this.sessions.set(link.id, session);
    return session;
  }

  /** How events reach a peer of `transport` on another server; without one they are dropped. */
  relayVia(transport: PeerTransport, relay: PeerRelay): void {
    this.relays.set(transport, relay);
  }

  /** Delivers an event to a peer connected to this server, if it still is. */
  deliverHere(peerId: string, event: PeerEvent): void {
    this.sessions.get(peerId)?.link.deliver(event);
  }

  /** Delivers an event to a peer wherever it is connected. */
  async deliver(address: PeerAddress, event: PeerEvent): Promise<void> {
    if (address.instance === this.instance) this.deliverHere(address.id, event);
    else await this.relays.get(address.transport)?.deliver(address, event);
  }

  /** Tells the peers left behind in rooms that lost someone that their peer is gone. */
  async departed(remaining: readonly PeerAddress[]): Promise<void> {
    await Promise.all(remaining.map((peer) => this.deliver(peer, { type: 'peer-disconnected' })));
  }

  /** Ends every peer's connection: this server can no longer vouch for the rooms they are in. */
  dropAll(): void {
    for (const session of this.sessions.values()) session.link.drop();
  }

  /** Stops taking steps and waits for those under way. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.sessions.values()].map((session) => session.settled()));
  }

  get isClosing(): boolean {
    return this.closing;
  }

  async join(link: PeerLink, roomId: string): Promise<void> {
    // UUIDs are case-insensitive, so a room is too: peers that spell the id differently still meet.
    const outcome = await this.registry.join(roomId.toLowerCase(), this.addressOf(link));
    if (outcome.kind === 'rejoined') {
      link.deliver({ type: 'room-joined', role: outcome.role });
      return;
    }
    await this.departed(outcome.left?.remaining ?? []);
    if (outcome.kind === 'full') {
      link.deliver({ type: 'room-full' });
      return;
    }
    link.deliver({ type: 'room-joined', role: outcome.role });
    if (outcome.role === 'receiver') {
      for (const other of outcome.others) {
        await this.deliver(other, { type: 'user-connected', peerId: link.id });
      }
    }
  }

  async signal(link: PeerLink, request: SignalRequest): Promise<void> {
    const room = await this.registry.roomOf(link.id);
    if (room === undefined) {
      link.deliver({ type: 'error', message: SIGNALING_ERROR.notInRoom });
      return;
    }
    if (request.roomId !== undefined && request.roomId.toLowerCase() !== room.id) {
      link.deliver({ type: 'error', message: SIGNALING_ERROR.roomMismatch });
      return;
    }
    const others = room.peers.filter((peer) => peer.id !== link.id);
    const recipients =
      request.target === undefined ? others : others.filter((peer) => peer.id === request.target);
    if (request.target !== undefined && recipients.length === 0) {
      link.deliver({ type: 'error', message: SIGNALING_ERROR.unknownTarget });
      return;
    }
    const event: PeerEvent = { type: 'signal', signal: request.signal, sender: link.id };
    for (const recipient of recipients) await this.deliver(recipient, event);
  }

  async disconnect(link: PeerLink): Promise<void> {
    this.sessions.delete(link.id);
    await this.leave(link.id);
  }

  private async leave(peerId: string): Promise<void> {
    const departure = await this.registry.leave(peerId);
    await this.departed(departure?.remaining ?? []);
  }

  private addressOf(link: PeerLink): PeerAddress {
    return { id: link.id, transport: link.transport, instance: this.instance };
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
    readonly link: PeerLink,
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

  /** Resolves once the steps taken so far are done. */
  settled(): Promise<void> {
    return this.queue;
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue
      .then(() => (this.hub.isClosing ? undefined : step()))
      .catch((error: unknown) => this.hub.fail(this.link, error));
  }
}
