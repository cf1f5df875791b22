import { io, type Socket } from 'socket.io-client';
import { defaultFailure, type Failure } from '../../../src-shared/protocol/error-codes';
import { ROLE_WAIT_TIMEOUT_MS } from '../../../src-shared/protocol/limits';
import { SOCKET_IO_PATH } from '../../../src-shared/signaling/endpoints';
import type { PeerRole } from '../../../src-shared/signaling/peer-role';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../../src-shared/signaling/socket-events';
import { TransferFailure } from './transfer-failure';

/** How long the event socket may take to connect before the server counts as out of reach. */
export const SOCKET_CONNECT_TIMEOUT_MS = 20_000;

/** What the server tells a browser peer, as one union so a wait can watch for several at once. */
export type SignalingEvent =
  | { type: 'user-connected'; peerId: string }
  | { type: 'signal'; signal: SignalPayload; sender: string }
  | { type: 'peer-disconnected' }
  /** The socket itself went away. */
  | { type: 'lost' }
  | { type: 'error'; message: string };

type PeerSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A browser peer's seat on the event socket (socket.io, path /socket.io/). */
export class SignalingSocket {
  readonly #socket: PeerSocket;
  readonly #listeners = new Set<(event: SignalingEvent) => void>();
  #roomId: string | undefined;

  private constructor(socket: PeerSocket) {
    this.#socket = socket;
    const deliver = (event: SignalingEvent): void => {
      for (const listener of [...this.#listeners]) listener(event);
    };
    socket.on('user-connected', (peerId) => deliver({ type: 'user-connected', peerId }));
    socket.on('signal', ({ signal, sender }) => deliver({ type: 'signal', signal, sender }));
    socket.on('peer-disconnected', () => deliver({ type: 'peer-disconnected' }));
    socket.on('error', ({ message }) => deliver({ type: 'error', message: String(message) }));
    socket.on('disconnect', () => deliver({ type: 'lost' }));
  }

  /** Connects to the signaling server at `address` (an origin). */
  static connect(address: string, signal: AbortSignal): Promise<SignalingSocket> {
    const socket: PeerSocket = io(address, {
      path: SOCKET_IO_PATH,
      // A new connection would be a new peer outside the room: a lost socket ends the attempt.
      reconnection: false,
      timeout: SOCKET_CONNECT_TIMEOUT_MS,
      forceNew: true,
    });
    return new Promise((resolve, reject) => {
      const cancel = (): void => {
        socket.close();
        reject(new TransferFailure(defaultFailure('ERR_CANCELLED')));
      };
      signal.addEventListener('abort', cancel, { once: true });
      socket.once('connect', () => {
        signal.removeEventListener('abort', cancel);
        resolve(new SignalingSocket(socket));
      });
      socket.once('connect_error', (error) => {
        signal.removeEventListener('abort', cancel);
        socket.close();
        const failure = defaultFailure('ERR_SIGNALING_UNREACHABLE');
        reject(
          new TransferFailure({ ...failure, message: `${failure.message} (${error.message})` }),
        );
      });
    });
  }

  /** Every later event until the returned function is called. */
  listen(listener: (event: SignalingEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Joins the room and resolves with the role the server assigned (within 20 s). */
  join(roomId: string, signal: AbortSignal): Promise<PeerRole> {
    this.#roomId = roomId;
    const socket = this.#socket;
    return new Promise((resolve, reject) => {
      const fail = (failure: Failure): void => {
        finish();
        reject(new TransferFailure(failure));
      };
      const joined = ({ role }: { role: PeerRole }): void => {
        finish();
        resolve(role);
      };
      const full = (): void => fail(defaultFailure('ERR_ROOM_FULL'));
      const stopListening = this.listen((event) => {
        if (event.type === 'error') fail(serverError(event.message));
        else if (event.type === 'lost') fail(defaultFailure('ERR_SIGNALING_UNREACHABLE'));
      });
      const cancel = (): void => fail(defaultFailure('ERR_CANCELLED'));
      const timer = setTimeout(
        () => fail(defaultFailure('ERR_ROLE_TIMEOUT')),
        ROLE_WAIT_TIMEOUT_MS,
      );
      function finish(): void {
        clearTimeout(timer);
        stopListening();
        socket.off('room-joined', joined);
        socket.off('room-full', full);
        signal.removeEventListener('abort', cancel);
      }
      socket.on('room-joined', joined);
      socket.on('room-full', full);
      signal.addEventListener('abort', cancel, { once: true });
      socket.emit('join-room', roomId);
    });
  }

  /** Relays a negotiation payload to `target`, or to the other peer of the room. */
  send(signal: SignalPayload, target?: string): void {
    this.#socket.emit('signal', {
      signal,
      ...(target === undefined ? {} : { target }),
      ...(this.#roomId === undefined ? {} : { roomId: this.#roomId }),
    });
  }

  close(): void {
    this.#listeners.clear();
    this.#socket.close();
  }
}

/** The server's own words, kept short: they are shown after "the signaling server reported". */
export function serverError(message: string): Failure {
  const failure = defaultFailure('ERR_SIGNALING_ERROR');
  return { ...failure, message: `${failure.message}: ${message.slice(0, 200)}` };
}
