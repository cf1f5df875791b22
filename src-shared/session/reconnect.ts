import { RECONNECT_WINDOW_MS } from '../protocol/limits';
import { toHex } from '../verify/file-digest';
import { sha256 } from '../verify/hash-functions';
import { newSecretIfAble } from '../verify/sas';
import { connect, type ConnectTimeouts } from './connect-peer';
import type { TransferDirection, TransferView } from '../transfer/transfer-view';
import type { KeptBytes } from './link-watch';
import type { ChannelPort, Clock, RouteChoice, SignalingPort } from './ports';
import { holdToExpectedPeer, type ExpectedPeer } from './expected-peer';
import { RECONNECT_RETRY_MS } from './session-limits';
import { SessionFailure, unlessCancelled } from './session-failure';
import { errorMessage } from '../format/error-message';
import { roomIdFromDigest } from '../signaling/room-id';

export interface ReconnectPorts {
  clock: Clock;
  timeouts: ConnectTimeouts;
  joinRoom(roomId: string, cancelled: AbortSignal): Promise<SignalingPort>;
}

/**
 * The room two peers meet in again after their link was lost for the `generation`-th time: a
 * UUID both derive from the secret the sender announced beside `reconnect` over their verified
 * connection, so no code and no new request to the server is needed, and nobody who learned only
 * the code or the room can find it (docs/protocol.md, "Reconnect"). Whoever arrives first holds
 * the sender's seat and offers; which side sends files does not matter to the connection.
 */
export async function reconnectRoomId(rejoinSecret: string, generation: number): Promise<string> {
  const hash = toHex(
    await sha256(new TextEncoder().encode(`ferry-reconnect:${rejoinSecret}:${generation}`)),
  );
  return roomIdFromDigest(hash);
}

/**
 * Connects again after a lost link: joins the reconnect room and sets up a new connection, and
 * tries again every RECONNECT_RETRY_MS until it works or RECONNECT_WINDOW_MS (10 min) have passed
 * (ERR_LINK_LOST). A connection to anyone but `peer` (the batch's other end) is closed before a
 * frame moves and the room left: a stranger there is skipped, and the real peer waited for.
 * `attempting` hears of each try. The caller closes the seat once the transfer has started again.
 */
export async function reconnect(
  ports: ReconnectPorts,
  route: RouteChoice,
  room: { rejoinSecret: string; generation: number },
  peer: ExpectedPeer | undefined,
  cancelled: AbortSignal,
  attempting: (attempt: number) => void,
): Promise<{ channel: ChannelPort; seat: SignalingPort }> {
  const { clock } = ports;
  const deadline = clock.now() + RECONNECT_WINDOW_MS;
  const roomId = await reconnectRoomId(room.rejoinSecret, room.generation);
  let problem = 'the other device did not come back';
  for (let attempt = 1; ; attempt += 1) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) throw SessionFailure.withDetail('ERR_LINK_LOST', problem);
    attempting(attempt);
    try {
      const seat = await unlessCancelled(ports.joinRoom(roomId, cancelled), cancelled, (joined) =>
        joined.close(),
      );
      try {
        const timeouts = { ...ports.timeouts, peerJoin: remaining };
        const channel = await connect({ clock, timeouts }, seat, route, cancelled, () => undefined);
        // Certificates persist across connections: a new one on the other end is someone else.
        holdToExpectedPeer(channel, peer);
        return { channel, seat };
      } catch (error) {
        seat.close();
        throw error;
      }
    } catch (error) {
      if (cancelled.aborted) throw new SessionFailure('ERR_CANCELLED');
      problem = errorMessage(error);
      await unlessCancelled(
        new Promise<void>((resolve) => clock.setTimeout(resolve, RECONNECT_RETRY_MS)),
        cancelled,
      );
    }
  }
}

/**
 * The room once a batch has started (docs/protocol.md, "Connection lifecycle"): left at once,
 * unless a lost link would be restored. Then the seat is kept while the batch runs, because the
 * other program ending closes its socket and the server says so at once: a silent link after
 * that is a program gone, not a network gone, and waiting for it to come back would be in vain.
 */
export class SeatAfterStart {
  readonly #seat: SignalingPort;
  #peerLeft = false;

  constructor(seat: SignalingPort) {
    this.#seat = seat;
  }

  /** The other side left the room (its program ended) while the batch ran. */
  get peerLeft(): boolean {
    return this.#peerLeft;
  }

  readonly started = (reconnectable: boolean): void => {
    if (!reconnectable) {
      this.#seat.close();
      return;
    }
    this.#seat.listen((event) => {
      if (event.type === 'peer-disconnected') this.#peerLeft = true;
    });
  };

  /** After a lost link: a gone program fails the transfer; a gone network is reconnected. */
  throwIfPeerLeft(): void {
    if (this.#peerLeft) {
      throw SessionFailure.withDetail('ERR_PEER_CLOSED', 'its program ended');
    }
  }
}

/** How a session ended, as far as restoring its link goes. */
export interface SessionEndForReconnect {
  lost: boolean;
  kept: KeptBytes;
  /**
   * The sender's secret both sides learned over the verified connection, when they agreed
   * `reconnect`: where they meet again derives from it (docs/protocol.md, "Reconnect").
   */
  rejoinSecret?: string;
}

/**
 * A fresh secret to announce beside `reconnect`; undefined when the runtime has no random source,
 * and then a lost link fails the transfer.
 */
export const newRejoinSecret = newSecretIfAble;

/** Why a batch whose first connection named no remote certificate ends at its first lost link. */
export const UNPINNED = 'the first connection named no certificate to check a restored one against';

/**
 * Runs sessions until one ends with its link intact: after each lost link (unless the other
 * program ended) it reconnects and runs `next` on the new channel, with the seat handled as
 * after any start. Both flows end with this loop (docs/protocol.md, "Reconnect").
 */
export async function carryOn<End extends SessionEndForReconnect>(
  setting: {
    ports: ReconnectPorts;
    route: RouteChoice;
    cancelled: AbortSignal;
    direction: TransferDirection;
    publish(view: TransferView): void;
  },
  /**
   * `peer`: the first connection's other end, whom every restored connection must reach;
   * undefined when that connection named no certificate, and then no link is restored.
   */
  first: { end: End; seat: SeatAfterStart; peer: ExpectedPeer | undefined },
  next: (channel: ChannelPort, started: (reconnectable: boolean) => void, end: End) => Promise<End>,
): Promise<End> {
  const { ports, route, cancelled, direction, publish } = setting;
  const { rejoinSecret } = first.end;
  let { end, seat: watch } = first;
  for (let generation = 1; end.lost; generation += 1) {
    watch.throwIfPeerLeft();
    // A lost link counts only with `reconnect` agreed, which needs the secret: never without it.
    if (rejoinSecret === undefined) throw new SessionFailure('ERR_LINK_LOST');
    // Fails closed: with no certificate to hold it to, a restored link could be anyone's.
    if (first.peer === undefined) throw SessionFailure.withDetail('ERR_LINK_LOST', UNPINNED);
    const kept = end.kept;
    const again = await reconnect(
      ports,
      route,
      { rejoinSecret, generation },
      first.peer,
      cancelled,
      (attempt) => publish({ phase: 'reconnecting', direction, attempt, ...kept }),
    );
    try {
      watch = new SeatAfterStart(again.seat);
      end = await next(again.channel, watch.started, end);
    } finally {
      again.seat.close();
    }
  }
  return end;
}
