import { io, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import { afterEach } from 'vitest';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../../src-shared/signaling/socket-events';
import type { WsServerMessage } from '../../../src-shared/signaling/ws-messages';

/** Values in arrival order; `next()` waits for the next one that has not been taken yet. */
class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];

  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  next(): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** What arrived and has not been taken. */
  pending(): T[] {
    return [...this.items];
  }
}

const open = new Set<{ close(): void }>();

afterEach(() => {
  for (const peer of open) peer.close();
  open.clear();
});

export interface SocketEvent {
  event: string;
  payload: unknown;
}

export type PeerSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A browser-style peer on the event socket. */
export class SocketIoPeer {
  readonly inbox = new Inbox<SocketEvent>();

  private constructor(readonly socket: PeerSocket) {
    socket.onAny((event: string, payload: unknown) => this.inbox.push({ event, payload }));
  }

  static connect(url: string, options: Parameters<typeof io>[1] = {}): Promise<SocketIoPeer> {
    const socket: PeerSocket = io(url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      ...options,
    });
    const peer = new SocketIoPeer(socket);
    open.add(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(peer));
      socket.once('connect_error', reject);
    });
  }

  get id(): string {
    return this.socket.id ?? '';
  }

  next(): Promise<SocketEvent> {
    return this.inbox.next();
  }

  join(roomId: unknown): Promise<SocketEvent> {
    (this.socket.emit as (event: string, ...args: unknown[]) => void)('join-room', roomId);
    return this.next();
  }

  /** Round-trips a ping: everything the server sent this peer before it has arrived by then. */
  ping(): Promise<void> {
    return new Promise((resolve) => this.socket.emit('ping', () => resolve()));
  }

  /** Emits anything, shape unchecked, as a hostile client would. */
  emitRaw(event: string, ...args: unknown[]): void {
    (this.socket.emit as (event: string, ...args: unknown[]) => void)(event, ...args);
  }

  disconnected(): Promise<void> {
    return new Promise((resolve) => this.socket.once('disconnect', () => resolve()));
  }

  close(): void {
    this.socket.close();
  }
}

/** A native-style peer on the raw WebSocket transport. */
export class WsPeer {
  readonly inbox = new Inbox<WsServerMessage>();
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.inbox.push(JSON.parse(String(data)) as WsServerMessage));
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  static connect(url: string, headers: Record<string, string> = {}): Promise<WsPeer> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers });
    const peer = new WsPeer(socket);
    open.add(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(peer));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  next(): Promise<WsServerMessage> {
    return this.inbox.next();
  }

  join(roomId: unknown): Promise<WsServerMessage> {
    this.send({ type: 'join-room', roomId });
    return this.next();
  }

  /** Round-trips a ping: everything the server sent this peer before it has arrived by then. */
  async ping(): Promise<void> {
    this.send({ type: 'ping' });
    const pong = await this.next();
    if (pong.type !== 'pong') throw new Error(`Expected pong, got ${JSON.stringify(pong)}`);
  }

  close(): void {
    this.socket.close();
  }
}
