import WebSocket from 'ws';
import { WS_HEARTBEAT_INTERVAL_MS } from '../../src-shared/signaling/limits';
import type { PeerRole } from '../../src-shared/signaling/peer-role';
import type { SignalPayload } from '../../src-shared/signaling/signal-payload';
import { decodeWsServerMessage } from '../../src-shared/signaling/ws-codec';
import type { WsClientMessage, WsServerMessage } from '../../src-shared/signaling/ws-messages';
import { WS_PATH } from '../../src-shared/signaling/endpoints';
import type { SignalingEvent, SignalingPort } from '../../src-shared/session/ports';
import { SignalInbox } from '../../src-shared/session/signal-inbox';
import { SessionFailure } from '../../src-shared/session/session-failure';

/** The address of the /ws transport for a server's HTTP base address. */
export function signalingSocketUrl(serverUrl: string): string {
  const url = new URL(WS_PATH, serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * A native peer's seat on the signaling server over /ws, the native adapter of the session
 * core's SignalingPort: join a room, learn the role, relay negotiation payloads, and keep the
 * socket alive with the transport's `ping`. Every event after the socket opens is kept in the
 * inbox until the core listens, so nothing that arrives with the role is lost.
 */
export class SignalingClient implements SignalingPort {
  readonly #socket: WebSocket;
  readonly #roomId: string;
  readonly #inbox = new SignalInbox();
  #keepAlive: NodeJS.Timeout | undefined;
  #pendingRole: { resolve(role: PeerRole): void; reject(error: SessionFailure): void } | undefined;
  #role: PeerRole = 'sender';
  #closed = false;
  #lost = false;

  private constructor(socket: WebSocket, roomId: string) {
    this.#socket = socket;
    this.#roomId = roomId;
  }

  get role(): PeerRole {
    return this.#role;
  }

  /**
   * Opens the socket, sends join-room and waits for the role: all of it within `roleWaitMs`, the
   * 20 s role wait (docs/protocol.md, "Rooms and roles").
   */
  static async join(
    serverUrl: string,
    roomId: string,
    roleWaitMs: number,
    signal?: AbortSignal,
  ): Promise<{ client: SignalingClient; role: PeerRole }> {
    const url = signalingSocketUrl(serverUrl);
    const socket = new WebSocket(url, { handshakeTimeout: roleWaitMs, perMessageDeflate: false });
    const client = new SignalingClient(socket, roomId);
    const abandon = () => client.#settleRole(new SessionFailure('ERR_CANCELLED'));
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      const role = await client.#start(url, roleWaitMs);
      return { client, role };
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
  }

  #start(url: string, roleWaitMs: number): Promise<PeerRole> {
    return new Promise<PeerRole>((resolve, reject) => {
      const timer = setTimeout(
        () => this.#settleRole(new SessionFailure('ERR_ROLE_TIMEOUT')),
        roleWaitMs,
      );
      this.#pendingRole = {
        resolve: (role) => {
          clearTimeout(timer);
          this.#role = role;
          resolve(role);
        },
        reject: (error) => {
          clearTimeout(timer);
          this.close();
          reject(error);
        },
      };
      const socket = this.#socket;
      socket.on('open', () => {
        this.#send({ type: 'join-room', roomId: this.#roomId });
        this.#keepAlive = setInterval(() => this.#send({ type: 'ping' }), WS_HEARTBEAT_INTERVAL_MS);
        this.#keepAlive.unref();
      });
      socket.on('message', (data, isBinary) => {
        if (!isBinary) this.#receive(data.toString());
      });
      socket.on('error', (error) => {
        this.#lose(
          SessionFailure.withDetail('ERR_SIGNALING_UNREACHABLE', `${url}: ${error.message}`),
        );
      });
      socket.on('close', () => {
        this.#lose(
          SessionFailure.withDetail('ERR_SIGNALING_UNREACHABLE', 'the connection to it was lost'),
        );
      });
    });
  }

  /** Relays a payload to the other peer of the room. */
  signal(payload: SignalPayload): void {
    this.#send({ type: 'signal', signal: payload, roomId: this.#roomId });
  }

  listen(listener: (event: SignalingEvent) => void): () => void {
    return this.#inbox.listen(listener);
  }

  /** Leaves the server for good; no event follows. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    this.#inbox.clear();
    this.#socket.removeAllListeners();
    // A late socket error must not become an uncaught exception.
    this.#socket.on('error', () => undefined);
    this.#socket.close();
  }

  #receive(text: string): void {
    const decoded = decodeWsServerMessage(text);
    if (!decoded.ok) return;
    const message: WsServerMessage = decoded.message;
    switch (message.type) {
      case 'room-joined':
        this.#settleRole(message.role);
        return;
      case 'room-full':
        this.#settleRole(new SessionFailure('ERR_ROOM_FULL'));
        return;
      case 'user-connected':
        this.#inbox.deliver({ type: 'user-connected' });
        return;
      case 'signal':
        this.#inbox.deliver({ type: 'signal', payload: message.signal });
        return;
      case 'peer-disconnected':
        this.#inbox.deliver({ type: 'peer-disconnected' });
        return;
      case 'error':
        this.#lose(SessionFailure.withDetail('ERR_SIGNALING_ERROR', message.message));
        return;
      case 'pong':
        return;
    }
  }

  #settleRole(outcome: PeerRole | SessionFailure): void {
    const pending = this.#pendingRole;
    if (pending === undefined) return;
    this.#pendingRole = undefined;
    if (outcome instanceof SessionFailure) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  #lose(error: SessionFailure): void {
    if (this.#closed || this.#lost) return;
    if (this.#pendingRole !== undefined) {
      this.#settleRole(error);
      return;
    }
    // Reported once; the seat stays until its owner closes it.
    this.#lost = true;
    this.#inbox.deliver({ type: 'lost', failure: { code: error.code, message: error.message } });
  }

  #send(message: WsClientMessage): void {
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }
}
