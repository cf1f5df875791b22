import type { TransferView } from '../transfer/transfer-view';
import { connect, type ConnectTimeouts } from './connect-peer';
import { reportedBytes } from './byte-count-report';
import type { KeptBytes } from './link-watch';
import type { ChannelPort, Clock, RouteChoice, SignalingPort } from './ports';
import { batchPeerOf, holdToExpectedPeer, type ExpectedPeer } from './expected-peer';
import { carryOn, SeatAfterStart } from './reconnect';
import type { ReceiveSessionEnd } from './receive-session';
import type { SaveTarget } from './save-target';
import { SessionFailure, unlessCancelled } from './session-failure';

/** What a receive needs from its runtime; each member translates one API, nothing more. */
export interface ReceiveFlowPorts {
  clock: Clock;
  timeouts: ConnectTimeouts;
  /** The room id the code names. */
  resolveCode(code: string, cancelled: AbortSignal): Promise<string>;
  joinRoom(roomId: string, cancelled: AbortSignal): Promise<SignalingPort>;
  chooseRoute(cancelled: AbortSignal): Promise<RouteChoice>;
  /**
   * Runs the batch over the open channel until it has an outcome (published by the session
   * core). `started` is called once the first ack or incompatible has been sent. `target`: the
   * batch was accepted before a lost link, and goes on into it without asking again; `kept` is
   * how far it got.
   */
  runSession(
    channel: ChannelPort,
    started: (reconnectable: boolean) => void,
    target: SaveTarget | undefined,
    kept?: KeptBytes,
  ): Promise<ReceiveSessionEnd>;
  /** Adds a completed batch to the server's anonymous counter; never fails the transfer. */
  reportBytes(bytes: number): Promise<void>;
}

export interface ReceiveFlowOptions {
  /** Normalized; empty when the receive was invited to `roomId`. */
  code: string;
  /**
   * An invitation to this room (docs/protocol.md, "Pair rooms", "Presence"): no code is resolved,
   * the room is joined at once.
   */
  roomId?: string;
  publish(view: TransferView): void;
  cancelled: AbortSignal;
  /** The person may opt out of the byte counter. */
  report: boolean;
  /** Only this remembered device may send (docs/protocol.md, "Remembered devices"). */
  expectPeer?: ExpectedPeer;
}

/**
 * One receive, on every surface: resolve the code, join the sender's room, answer its offer, run
 * the batch, report the byte count. The room is left once the first ack is out (docs/protocol.md,
 * "Connection lifecycle"). Rejects only with a SessionFailure.
 */
export async function runReceiveFlow(
  ports: ReceiveFlowPorts,
  options: ReceiveFlowOptions,
): Promise<void> {
  const { code, publish, cancelled, roomId: invited } = options;
  publish({ phase: 'connecting', direction: 'receive', code, stage: 'finding' });
  if (invited === undefined && code === '') throw new SessionFailure('ERR_CODE_NOT_FOUND');
  const routing = ports.chooseRoute(cancelled);
  routing.catch(() => undefined);
  const roomId = invited ?? (await unlessCancelled(ports.resolveCode(code, cancelled), cancelled));
  const route = await unlessCancelled(routing, cancelled);
  const seat = await unlessCancelled(ports.joinRoom(roomId, cancelled), cancelled, (joined) =>
    joined.close(),
  );
  let first: ReceiveSessionEnd;
  let peer: ExpectedPeer | undefined;
  const watch = new SeatAfterStart(seat);
  try {
    if (seat.role !== 'receiver') {
      // First into the room: whoever registered the code, or sent the invitation, has left it,
      // and nobody will offer (docs/protocol.md, "Dead codes", "Pair rooms").
      throw invited === undefined
        ? new SessionFailure('ERR_NO_ONE_WAITING')
        : SessionFailure.withDetail('ERR_PEER_CLOSED', 'it left before this device came');
    }
    const channel = await connect(ports, seat, route, cancelled, (step) =>
      publish({ phase: 'connecting', direction: 'receive', code, ...step }),
    );
    holdToExpectedPeer(channel, options.expectPeer);
    // Read while the connection is up: a closed one no longer knows its certificates.
    peer = batchPeerOf(channel);
    first = await ports.runSession(channel, watch.started, undefined);
  } finally {
    seat.close();
  }
  // A lost link is restored by the flow; the sender sends the batch anew and what arrived resumes.
  const setting = { ports, route, cancelled, direction: 'receive', publish } as const;
  // What travelled in every session counts, the ones whose link was lost included.
  let travelled = first.travelled;
  const end = await carryOn(
    setting,
    { end: first, seat: watch, peer },
    async (again, started, last) => {
      const next = await ports.runSession(again, started, last.target, last.kept);
      travelled += next.travelled;
      return next;
    },
  );
  if (end.received !== undefined && options.report) {
    await ports.reportBytes(reportedBytes(travelled, end.kept.totalBytes));
  }
}
