import { cleanDeviceName } from '../devices/device-name';
import type { Clock } from '../session/ports';
import type { PresenceEntry, PresenceIntro, PresenceInvite, PresenceSeat } from './nearby-ports';
import { PRESENCE_JOIN_TIMEOUT_MS } from './nearby-limits';
import { decodePresenceMessage, type PresenceClientMessage } from './presence-wire';

/**
 * What a presence socket tells its seat, in the words of either transport; the adapters translate
 * their transport into these and nothing more.
 */
export type PresenceSocketEvent =
  /** The socket is open: the seat sends `presence-join`. */
  | { type: 'open' }
  /** A server message (/ws) or event (event socket) by name, its payload as it came. */
  | { type: 'message'; name: string; payload: unknown }
  /** The socket could not open, or it closed. */
  | { type: 'closed' };

/** One presence socket as its transport adapter opened it. */
export interface PresenceSocket {
  send(message: PresenceClientMessage): void;
  /** Closes the socket for good; it reports nothing afterwards. */
  close(): void;
}

export type OpenPresenceSocket = (report: (event: PresenceSocketEvent) => void) => PresenceSocket;

export interface PresencePorts {
  clock: Clock;
  open: OpenPresenceSocket;
}

/**
 * Joins a server's presence roster over a socket the runtime opens (docs/protocol.md,
 * "Presence"), on every surface. Resolves with the seat once the server sends the roster, and
 * undefined when it answers `presence-join` with `error` (presence off, or not Ferry's server),
 * the socket fails, nothing comes within PRESENCE_JOIN_TIMEOUT_MS, or `cancelled` fires first.
 * `cancelled` firing later closes the seat.
 */
export function openPresenceSeat(
  ports: PresencePorts,
  intro: PresenceIntro,
  cancelled: AbortSignal,
): Promise<PresenceSeat | undefined> {
  if (cancelled.aborted) return Promise.resolve(undefined);
  const name = cleanDeviceName(intro.name);
  if (name === undefined) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let seat: RosterSeat | undefined;
    let settled = false;
    const settle = (result: RosterSeat | undefined) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      if (result === undefined) {
        cancelled.removeEventListener('abort', onAbort);
        socket.close();
      }
      resolve(result);
    };
    const onAbort = () => {
      if (seat === undefined) settle(undefined);
      else seat.close();
    };
    const timer = ports.clock.setTimeout(() => settle(undefined), PRESENCE_JOIN_TIMEOUT_MS);
    const socket = ports.open((event) => {
      if (seat !== undefined) {
        seat.hear(event);
        return;
      }
      if (event.type === 'open') {
        socket.send({ type: 'presence-join', name, kind: intro.kind });
        return;
      }
      if (event.type === 'closed' || event.name === 'error') {
        settle(undefined);
        return;
      }
      const message = decodePresenceMessage(event.name, event.payload);
      if (message?.type !== 'presence') return;
      seat = new RosterSeat(socket, message.self, message.devices, () =>
        cancelled.removeEventListener('abort', onAbort),
      );
      settle(seat);
    });
    cancelled.addEventListener('abort', onAbort, { once: true });
  });
}

/** A program's place on the roster: the list as last told, its listeners, its end. */
class RosterSeat implements PresenceSeat {
  readonly ended: Promise<void>;
  private list: readonly PresenceEntry[];
  private readonly changeListeners = new Set<(devices: readonly PresenceEntry[]) => void>();
  private readonly inviteListeners = new Set<(invite: PresenceInvite) => void>();
  private open = true;
  private end!: () => void;

  constructor(
    private readonly socket: PresenceSocket,
    readonly self: string,
    devices: readonly PresenceEntry[],
    private readonly onEnd: () => void,
  ) {
    this.list = devices;
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  devices(): readonly PresenceEntry[] {
    return this.list;
  }

  onChange(listener: (devices: readonly PresenceEntry[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onInvite(listener: (invite: PresenceInvite) => void): () => void {
    this.inviteListeners.add(listener);
    return () => this.inviteListeners.delete(listener);
  }

  invite(to: string, roomId: string): void {
    if (this.open) this.socket.send({ type: 'presence-invite', to, roomId });
  }

  close(): void {
    if (!this.open) return;
    this.socket.close();
    this.finish();
  }

  /** What the socket reports once the seat is held. */
  hear(event: PresenceSocketEvent): void {
    if (!this.open) return;
    if (event.type === 'closed') {
      this.finish();
      return;
    }
    if (event.type !== 'message') return;
    const message = decodePresenceMessage(event.name, event.payload);
    if (message?.type === 'presence') {
      this.list = message.devices;
      for (const listener of [...this.changeListeners]) listener(this.list);
    } else if (message?.type === 'presence-invite') {
      const invite = { from: message.from, roomId: message.roomId };
      for (const listener of [...this.inviteListeners]) listener(invite);
    }
  }

  private finish(): void {
    this.open = false;
    this.changeListeners.clear();
    this.inviteListeners.clear();
    this.onEnd();
    this.end();
  }
}
