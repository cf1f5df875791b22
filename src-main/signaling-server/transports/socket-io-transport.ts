import type { Server as HttpServer } from 'node:http';
import { Server, type BroadcastOperator, type Socket } from 'socket.io';
import { SOCKET_IO_PATH } from '../../../src-shared/signaling/endpoints';
import {
  MAX_SIGNAL_MESSAGE_BYTES,
  MAX_TRANSPORT_FRAME_BYTES,
} from '../../../src-shared/signaling/limits';
import {
  decodePresenceRequest,
  PRESENCE_CLIENT_TYPES,
  type PresenceServerMessage,
} from '../../../src-shared/nearby/presence-wire';
import { isRoomId } from '../../../src-shared/signaling/room-id';
import { SIGNALING_ERROR } from '../../../src-shared/signaling/signaling-errors';
import { decodeSocketSignalRequest } from '../../../src-shared/signaling/socket-codec';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../../src-shared/signaling/socket-events';
import type { SocketIoAdapter } from '../cluster/socket-io-redis-adapter';
import type { PeerAddress } from '../rooms/peer-address';
import type { PeerEvent } from '../rooms/peer-event';
import type { PeerRelay } from '../rooms/peer-relay';
import type { PresenceLink, PresenceRoster } from '../presence/presence-roster';
import type { SignalingHub } from '../rooms/signaling-hub';
import type { ConnectionGate } from './connection-gate';

type PeerSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
/** One socket of this server, or a socket id that the adapter finds on any server. */
type Recipient = PeerSocket | BroadcastOperator<ServerToClientEvents, unknown>;

const SPEC_EVENTS: readonly (keyof ClientToServerEvents)[] = ['join-room', 'signal', 'ping'];

function emit(socket: Recipient, event: PeerEvent): void {
  switch (event.type) {
    case 'room-joined':
      socket.emit('room-joined', { role: event.role });
      break;
    case 'user-connected':
      socket.emit('user-connected', event.peerId);
      break;
    case 'signal':
      socket.emit('signal', { signal: event.signal, sender: event.sender });
      break;
    case 'peer-disconnected':
      socket.emit('peer-disconnected', {});
      break;
    case 'room-full':
      socket.emit('room-full', {});
      break;
    case 'error':
      socket.emit('error', { message: event.message });
      break;
  }
}

function tell(socket: PeerSocket, message: PresenceServerMessage): void {
  switch (message.type) {
    case 'presence':
      socket.emit('presence', { self: message.self, devices: message.devices });
      break;
    case 'presence-invite':
      socket.emit('presence-invite', { from: message.from, roomId: message.roomId });
      break;
  }
}

/**
 * The event-socket transport (socket.io, path /socket.io/) of browser peers. In a cluster it runs
 * on the Redis adapter, and so also relays events to its peers on the other servers.
 */
export class SocketIoTransport implements PeerRelay {
  private readonly io: Server<ClientToServerEvents, ServerToClientEvents>;
  /** The events this server answers; any other gets `error` (presence's only with a roster). */
  private readonly clientEvents: ReadonlySet<string>;

  constructor(
    httpServer: HttpServer,
    private readonly hub: SignalingHub,
    gate: ConnectionGate,
    adapter?: SocketIoAdapter,
    /** The presence roster, when the server keeps one (docs/protocol.md, "Presence"). */
    private readonly presence?: PresenceRoster,
  ) {
    this.clientEvents = new Set<string>(
      presence === undefined ? SPEC_EVENTS : [...SPEC_EVENTS, ...PRESENCE_CLIENT_TYPES],
    );
    this.io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
      path: SOCKET_IO_PATH,
      adapter,
      serveClient: false,
      maxHttpBufferSize: MAX_TRANSPORT_FRAME_BYTES,
      // Upgrades on other paths (the /ws transport) belong to another listener.
      destroyUpgrade: false,
      cors: { origin: (origin, callback) => callback(null, gate.originListed(origin)) },
      allowRequest: (request, callback) => {
        const allowed = gate.originAllowed(request);
        callback(allowed ? null : SIGNALING_ERROR.originNotAllowed, allowed);
      },
    });
    this.io.use((socket, next) => {
      gate.admit(socket.request).then(
        (admitted) => next(admitted ? undefined : new Error(SIGNALING_ERROR.tooManyConnections)),
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
    });
    this.io.on('connection', (socket) => this.serve(socket));
  }

  /** Every socket.io server of the cluster hears this emit; the one holding the socket delivers. */
  async deliver(address: PeerAddress, event: PeerEvent): Promise<void> {
    emit(this.io.to(address.id), event);
  }

  close(): void {
    // Only this server's sockets: through the adapter, a plain disconnectSockets reaches them all.
    this.io.local.disconnectSockets(true);
    this.io.engine.close();
  }

  private serve(socket: PeerSocket): void {
    const session = this.hub.connect({
      id: socket.id,
      transport: 'socket.io',
      deliver: (event) => emit(socket, event),
      drop: () => socket.disconnect(true),
    });
    const fail = (message: string) => socket.emit('error', { message });

    socket.use(([event, ...args], next) => {
      if (!this.clientEvents.has(event)) {
        fail(SIGNALING_ERROR.unknownType);
        return;
      }
      if (Buffer.byteLength(JSON.stringify(args)) > MAX_SIGNAL_MESSAGE_BYTES) {
        fail(SIGNALING_ERROR.messageTooLarge);
        return;
      }
      next();
    });
    socket.on('join-room', (roomId: unknown) => {
      if (isRoomId(roomId)) session.join(roomId);
      else fail(SIGNALING_ERROR.invalidRoomId);
    });
    socket.on('signal', (request: unknown) => {
      const decoded = decodeSocketSignalRequest(request);
      if (decoded.ok) session.signal(decoded.message);
      else fail(decoded.error);
    });
    socket.on('ping', (callback: unknown) => {
      if (typeof callback === 'function') callback();
    });
    socket.on('disconnect', () => {
      this.presence?.leave(socket.id);
      session.disconnect();
    });
    if (this.presence !== undefined) this.servePresence(socket, this.presence);
  }

  private servePresence(socket: PeerSocket, presence: PresenceRoster): void {
    const listing: PresenceLink = {
      id: socket.id,
      tell: (message) => tell(socket, message),
      fail: (message) => socket.emit('error', { message }),
    };
    for (const type of PRESENCE_CLIENT_TYPES) {
      socket.on(type, (payload?: unknown) => {
        const request = decodePresenceRequest(type, payload);
        if (request.ok) presence.handle(listing, request.message);
        else listing.fail(request.error);
      });
    }
  }
}
