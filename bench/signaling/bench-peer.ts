import { io, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import type { PeerRole } from '../../src-shared/signaling/peer-role';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../src-shared/signaling/socket-events';
import { decodeWsServerMessage } from '../../src-shared/signaling/ws-codec';

export type Transport = 'socket.io' | 'ws';

/** One simulated peer, whatever its transport: joins a room, sends and receives signals. */
export interface BenchPeer {
  readonly transport: Transport;
  /** Resolves with the role the server assigned. */
  join(roomId: string): Promise<PeerRole>;
  /** Resolves when the server says the other peer joined (the sender only hears this). */
  readonly peerJoined: Promise<void>;
  signal(payload: unknown): void;
  onSignal: (payload: unknown) => void;
  connected(): boolean;
  close(): void;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

class SocketIoBenchPeer implements BenchPeer {
  readonly transport = 'socket.io';
  onSignal: (payload: unknown) => void = () => {};
  private readonly joined = deferred();
  readonly peerJoined = this.joined.promise;

  constructor(private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>) {
    socket.on('signal', ({ signal }) => this.onSignal(signal));
    socket.on('user-connected', () => this.joined.resolve());
  }

  join(roomId: string): Promise<PeerRole> {
    return new Promise((resolve, reject) => {
      this.socket.once('room-joined', ({ role }) => resolve(role));
      this.socket.once('error', ({ message }) => reject(new Error(message)));
      this.socket.emit('join-room', roomId);
    });
  }

  signal(payload: unknown): void {
    this.socket.emit('signal', { signal: payload });
  }

  connected(): boolean {
    return this.socket.connected;
  }

  close(): void {
    this.socket.close();
  }
}

class WsBenchPeer implements BenchPeer {
  readonly transport = 'ws';
  onSignal: (payload: unknown) => void = () => {};
  private readonly joined = deferred();
  readonly peerJoined = this.joined.promise;
  private roleWaiter: ((role: PeerRole) => void) | undefined;
  private errorWaiter: ((error: Error) => void) | undefined;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const decoded = decodeWsServerMessage(String(data));
      if (!decoded.ok) return;
      const message = decoded.message;
      if (message.type === 'signal') this.onSignal(message.signal);
      else if (message.type === 'user-connected') this.joined.resolve();
      else if (message.type === 'room-joined') this.roleWaiter?.(message.role);
      else if (message.type === 'error') this.errorWaiter?.(new Error(message.message));
    });
  }

  join(roomId: string): Promise<PeerRole> {
    return new Promise((resolve, reject) => {
      this.roleWaiter = resolve;
      this.errorWaiter = reject;
      this.socket.send(JSON.stringify({ type: 'join-room', roomId }));
    });
  }

  signal(payload: unknown): void {
    this.socket.send(JSON.stringify({ type: 'signal', signal: payload }));
  }

  connected(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.socket.terminate();
  }
}

/** Opens a peer; socket.io goes straight to WebSocket, as a browser does after its upgrade. */
export function connectPeer(transport: Transport, url: string): Promise<BenchPeer> {
  if (transport === 'socket.io') {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
    });
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(new SocketIoBenchPeer(socket)));
      socket.once('connect_error', reject);
    });
  }
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(new WsBenchPeer(socket)));
    socket.once('error', reject);
  });
}
