import { io, type Socket } from 'socket.io-client';
import { defaultFailure, type Failure } from '../../../src-shared/protocol/error-codes';
import { ROLE_WAIT_TIMEOUT_MS } from '../../../src-shared/protocol/limits';
import { SOCKET_IO_PATH } from '../../../src-shared/signaling/endpoints';
import type { PeerRole } from '../../../src-shared/signaling/peer-role';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import type { SignalingEvent, SignalingPort } from '../../../src-shared/session/ports';
import { SignalInbox } from '../../../src-shared/session/signal-inbox';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../../src-shared/signaling/socket-events';
import { SessionFailure } from '../../../src-shared/session/session-failure';
import { SOCKET_CONNECT_TIMEOUT_MS } from '../../../src-shared/signaling/limits';

type PeerSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A browser peer's seat on the event socket (socket.io, path /socket.io/): the browser adapter of
 * the session core's SignalingPort. Every event after the socket connects is kept in the inbox
 * until the core listens, so a signal that arrives together with the role is never lost.
 */
export class SignalingSocket implements SignalingPort {
  readonly #socket: PeerSocket;
  readonly #inbox = new SignalInbox();
  #roomId: string | undefined;
  #role: PeerRole = 'sender';
  #lost = false;

  private constructor(socket: PeerSocket) {
    this.#socket = socket;
    const inbox = this.#inbox;
    const lose = (failure: Failure): void => {
      if (this.#lost) return;
      this.#lost = true;
      inbox.deliver({ type: 'lost', failure });
    };
    socket.on('user-connected', () => inbox.deliver({ type: 'user-connected' }));
    socket.on('signal', ({ signal }) => inbox.deliver({ type: 'signal', payload: signal }));
    socket.on('peer-disconnected', () => inbox.deliver({ type: 'peer-disconnected' }));
    socket.on('error', ({ message }) => lose(serverError(String(message))));
    socket.on('disconnect', () => lose(defaultFailure('ERR_SIGNALING_UNREACHABLE')));
  }

  get role(): PeerRole {
    return this.#role;
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
    // The seat exists before the socket connects, so no event can come before its listeners.
    const seat = new SignalingSocket(socket);
    return new Promise((resolve, reject) => {
      const cancel = (): void => {
        socket.close();
        reject(SessionFailure.of(defaultFailure('ERR_CANCELLED')));
      };
      signal.addEventListener('abort', cancel, { once: true });
      socket.once('connect', () => {
        signal.removeEventListener('abort', cancel);
        resolve(seat);
      });
      socket.once('connect_error', (error) => {
        signal.removeEventListener('abort', cancel);
        socket.close();
        const failure = defaultFailure('ERR_SIGNALING_UNREACHABLE');
        reject(SessionFailure.of({ ...failure, message: `${failure.message} (${error.message})` }));
      });
    });
  }

  listen(listener: (event: SignalingEvent) => void): () => void {
    return this.#inbox.listen(listener);
  }

  /** Joins the room and resolves with the role the server assigned (within 20 s). */
  join(roomId: string, signal: AbortSignal): Promise<PeerRole> {
    this.#roomId = roomId;
    const socket = this.#socket;
    return new Promise((resolve, reject) => {
      const fail = (failure: Failure): void => {
        finish();
        reject(SessionFailure.of(failure));
      };
      const joined = ({ role }: { role: PeerRole }): void => {
        finish();
        this.#role = role;
        resolve(role);
      };
      const full = (): void => fail(defaultFailure('ERR_ROOM_FULL'));
      const refused = ({ message }: { message: unknown }): void =>
        fail(serverError(String(message)));
      const lost = (): void => fail(defaultFailure('ERR_SIGNALING_UNREACHABLE'));
      const cancel = (): void => fail(defaultFailure('ERR_CANCELLED'));
      const timer = setTimeout(
        () => fail(defaultFailure('ERR_ROLE_TIMEOUT')),
        ROLE_WAIT_TIMEOUT_MS,
      );
      function finish(): void {
        clearTimeout(timer);
        socket.off('room-joined', joined);
        socket.off('room-full', full);
        socket.off('error', refused);
        socket.off('disconnect', lost);
        signal.removeEventListener('abort', cancel);
      }
      socket.on('room-joined', joined);
      socket.on('room-full', full);
      socket.on('error', refused);
      socket.on('disconnect', lost);
      signal.addEventListener('abort', cancel, { once: true });
      socket.emit('join-room', roomId);
    });
  }

  /** Relays a negotiation payload to the other peer of the room. */
  signal(payload: SignalPayload): void {
    this.#socket.emit('signal', {
      signal: payload,
      ...(this.#roomId === undefined ? {} : { roomId: this.#roomId }),
    });
  }

  close(): void {
    this.#inbox.clear();
    this.#socket.close();
  }
}

/** The server's own words, kept short: they are shown after "the signaling server reported". */
export function serverError(message: string): Failure {
  const failure = defaultFailure('ERR_SIGNALING_ERROR');
  return { ...failure, message: `${failure.message}: ${message.slice(0, 200)}` };
}
