import type { ErrorCode } from '../protocol/error-codes';
import { displayReason } from '../protocol/display-reason';
import { SERVER_MESSAGE_MAX_CHARS } from '../signaling/limits';
import type { PeerRole } from '../signaling/peer-role';
import type { SignalPayload } from '../signaling/signal-payload';
import type { Clock, ClockTimer, SignalingEvent, SignalingPort } from './ports';
import { SessionFailure } from './session-failure';
import { SignalInbox } from './signal-inbox';

/**
 * What a signaling socket tells its seat, in the words of either transport (docs/protocol.md,
 * "Socket transports"); the adapters translate their transport into these and nothing more.
 */
export type SeatSocketEvent =
  /** The socket is open and `join-room` is sent: the role wait starts. */
  | { type: 'joining' }
  | { type: 'room-joined'; role: PeerRole }
  | { type: 'room-full' }
  | { type: 'user-connected' }
  | { type: 'signal'; payload: SignalPayload }
  | { type: 'peer-disconnected' }
  /** The server's `error`, its message as it came. */
  | { type: 'error'; message: string }
  /** The socket could not open, or it closed; `reason` is the transport's own, when it has one. */
  | { type: 'closed'; reason?: string };

/** One signaling socket as its transport adapter opened it. */
export interface SeatSocket {
  /** Relays a negotiation payload to the other peer of the room. */
  signal(payload: SignalPayload): void;
  /** Closes the socket for good; it reports nothing afterwards. */
  close(): void;
}

/**
 * Opens a socket to the signaling server that sends `join-room` for `roomId` as soon as it is
 * open, and reports everything that happens on it, from then on, to `report`.
 */
export type OpenSeatSocket = (
  roomId: string,
  report: (event: SeatSocketEvent) => void,
) => SeatSocket;

export interface RoomJoinPorts {
  clock: Clock;
  /** How long the server may take to give a role once `join-room` is sent. */
  roleWaitMs: number;
  open: OpenSeatSocket;
}

/** Why a socket that closed without a reason of its own is gone. */
const CONNECTION_LOST = 'the connection to it was lost';

/**
 * Joins a room through a socket the runtime opens, on every surface (docs/protocol.md, "Rooms
 * and roles"): resolves with a seat once the server gives a role, and rejects with a
 * SessionFailure when the room is full (ERR_ROOM_FULL), the server reports an error
 * (ERR_SIGNALING_ERROR with its message, shortened), the socket fails (ERR_SIGNALING_UNREACHABLE),
 * no role comes within `roleWaitMs` of `join-room` (ERR_ROLE_TIMEOUT), or `cancelled` fires
 * (ERR_CANCELLED). A failed join closes its socket.
 */
export function joinRoom(
  ports: RoomJoinPorts,
  roomId: string,
  cancelled: AbortSignal,
): Promise<SignalingPort> {
  if (cancelled.aborted) return Promise.reject(new SessionFailure('ERR_CANCELLED'));
  return new RoomSeat().join(ports, roomId, cancelled);
}

/**
 * The server's own words in a failure: after the code's sentence, at most
 * SERVER_MESSAGE_MAX_CHARS characters, with control characters replaced (a terminal shows them).
 */
function serverFailure(code: ErrorCode, message: string): SessionFailure {
  const shown = Array.from(displayReason(message)).slice(0, SERVER_MESSAGE_MAX_CHARS).join('');
  return SessionFailure.withDetail(code, shown);
}

/**
 * A seat in one room: the role, and from the socket's opening every event kept in the inbox
 * until the session core listens, so a signal that arrives with the role is never lost.
 */
class RoomSeat implements SignalingPort {
  readonly #inbox = new SignalInbox();
  #socket: SeatSocket | undefined;
  #role: PeerRole = 'sender';
  #waiting: ((outcome: PeerRole | SessionFailure) => void) | undefined;
  #roleWait: ClockTimer | undefined;
  #lost = false;
  #closed = false;

  get role(): PeerRole {
    return this.#role;
  }

  join(ports: RoomJoinPorts, roomId: string, cancelled: AbortSignal): Promise<SignalingPort> {
    return new Promise<SignalingPort>((resolve, reject) => {
      const abandon = (): void => this.#settle(new SessionFailure('ERR_CANCELLED'));
      this.#waiting = (outcome) => {
        this.#roleWait?.cancel();
        cancelled.removeEventListener('abort', abandon);
        if (outcome instanceof SessionFailure) {
          this.close();
          reject(outcome);
          return;
        }
        this.#role = outcome;
        resolve(this);
      };
      cancelled.addEventListener('abort', abandon, { once: true });
      const socket = ports.open(roomId, (event) => this.#report(event, ports));
      this.#socket = socket;
      // The socket may have failed while it was being opened.
      if (this.#closed) socket.close();
    });
  }

  signal(payload: SignalPayload): void {
    this.#socket?.signal(payload);
  }

  listen(listener: (event: SignalingEvent) => void): () => void {
    return this.#inbox.listen(listener);
  }

  /** Leaves the server for good; no event follows. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#roleWait?.cancel();
    this.#inbox.clear();
    this.#socket?.close();
  }

  #report(event: SeatSocketEvent, ports: RoomJoinPorts): void {
    if (this.#closed) return;
    switch (event.type) {
      case 'joining':
        if (this.#waiting === undefined || this.#roleWait !== undefined) return;
        this.#roleWait = ports.clock.setTimeout(
          () => this.#settle(new SessionFailure('ERR_ROLE_TIMEOUT')),
          ports.roleWaitMs,
        );
        return;
      case 'room-joined':
        this.#settle(event.role);
        return;
      case 'room-full':
        this.#settle(new SessionFailure('ERR_ROOM_FULL'));
        return;
      case 'user-connected':
      case 'peer-disconnected':
        this.#inbox.deliver({ type: event.type });
        return;
      case 'signal':
        this.#inbox.deliver({ type: 'signal', payload: event.payload });
        return;
      case 'error':
        this.#lose(serverFailure('ERR_SIGNALING_ERROR', event.message));
        return;
      case 'closed':
        this.#lose(
          SessionFailure.withDetail('ERR_SIGNALING_UNREACHABLE', event.reason ?? CONNECTION_LOST),
        );
        return;
    }
  }

  /** The join's outcome; later outcomes (a second role, a late room-full) change nothing. */
  #settle(outcome: PeerRole | SessionFailure): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    this.#waiting = undefined;
    waiting(outcome);
  }

  /** Fails the join, or once the seat is given, tells the core the seat is lost (once). */
  #lose(failure: SessionFailure): void {
    if (this.#waiting !== undefined) {
      this.#settle(failure);
      return;
    }
    if (this.#lost) return;
    this.#lost = true;
    this.#inbox.deliver({ type: 'lost', failure: failure.failure });
  }
}
