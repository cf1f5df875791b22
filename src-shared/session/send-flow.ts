import { REACH_ANSWER_TIMEOUT_MS } from '../nearby/nearby-limits';
import type { Reach } from '../nearby/nearby-ports';
import type { CodeOutcome } from '../signaling/http-api';
import type { ConnectingStage, FileEntryView, TransferView } from '../transfer/transfer-view';
import { connect, type ConnectTimeouts } from './connect-peer';
import type { ChannelPort, Clock, RouteChoice, SignalingPort } from './ports';
import { batchPeerOf, holdToExpectedPeer, type ExpectedPeer } from './expected-peer';
import { carryOn, SeatAfterStart } from './reconnect';
import type { SendSessionEnd } from './send-session';
import { SessionFailure, unlessCancelled } from './session-failure';
import { errorMessage } from '../format/error-message';

/** What a send needs from its runtime; each member translates one API, nothing more. */
export interface SendFlowPorts {
  clock: Clock;
  timeouts: ConnectTimeouts;
  newRoomId(): string;
  registerCode(roomId: string, cancelled: AbortSignal): Promise<string>;
  /**
   * Tells the server how the code ended (docs/protocol.md, "Dead codes"); best effort, it never
   * fails and never takes longer than its own short deadline.
   */
  releaseCode(code: string, roomId: string, outcome: CodeOutcome): Promise<void>;
  /** Opens a seat and joins `roomId`; every event from the socket's opening on is kept. */
  joinRoom(roomId: string, cancelled: AbortSignal): Promise<SignalingPort>;
  /** ICE servers (fetched once) and route policy; warnings go to the person. */
  chooseRoute(cancelled: AbortSignal): Promise<RouteChoice>;
  /**
   * Runs the batch over the open channel until it has an outcome (published by the session
   * core); `started` is called once the first ack or incompatible has arrived.
   */
  runSession(
    channel: ChannelPort,
    started: (reconnectable: boolean) => void,
    code: string,
    continuing: boolean,
  ): Promise<SendSessionEnd>;
}

export interface SendFlowOptions {
  files: readonly FileEntryView[];
  publish(view: TransferView): void;
  cancelled: AbortSignal;
  /** A browser sender waits about 2 s after connecting before it sends (docs/protocol.md, "Setup deadlines"). */
  afterConnectMs: number;
  /**
   * The secret drawn for this code, shown with it so its receive link can carry it
   * (docs/protocol.md, "Secret link"); the session proves it.
   */
  linkSecret?: string;
  /** The batch is this text message, which the views name as a text. */
  text?: string;
  /** Only this remembered device may receive the batch (docs/protocol.md, "Remembered devices"). */
  expectPeer?: ExpectedPeer;
  /**
   * Sends to this one device without a code (docs/protocol.md, "Pair rooms", "Presence"): no code
   * is registered, the room is delivered to the device, and `reach.expectPeer`, when set, pins it.
   */
  reach?: Reach;
}

/**
 * One send, on every surface: register a code and join the room (before the code is shown, so
 * a quick receiver cannot take the sender's seat), wait for the receiver, connect, run the batch.
 * The room is left once the transfer has started on both ends (docs/protocol.md, "Connection
 * lifecycle"). Rejects only with a SessionFailure; the session core publishes its own outcome.
 * Once the code is issued, how it ended is told to the server before the flow settles, so a
 * receiver who types it later is told why no one answers (docs/protocol.md, "Dead codes").
 */
export async function runSendFlow(ports: SendFlowPorts, options: SendFlowOptions): Promise<void> {
  const { cancelled } = options;
  const issued: IssuedCode = { met: false };
  try {
    await sendOnce(ports, options, issued);
  } finally {
    const { code, roomId } = issued;
    // A person's cancel, before a receiver came or after, ends the code; a receiver that came
    // used it up, whatever the transfer's outcome. A code that lapsed, or a sender that lost the
    // server, says nothing: the empty room tells the receiver.
    const outcome: CodeOutcome | undefined = cancelled.aborted
      ? 'cancelled'
      : issued.met
        ? 'used'
        : undefined;
    if (code !== undefined && roomId !== undefined && outcome !== undefined) {
      await ports.releaseCode(code, roomId, outcome);
    }
  }
}

/** How far the code of one send got. */
interface IssuedCode {
  code?: string;
  roomId?: string;
  /** A receiver came: the channel opened. */
  met: boolean;
}

async function sendOnce(
  ports: SendFlowPorts,
  options: SendFlowOptions,
  issued: IssuedCode,
): Promise<void> {
  const { files, publish, cancelled, reach } = options;
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  const text = options.text === undefined ? {} : { text: options.text };
  publish({ phase: 'registering', direction: 'send', files: [...files], totalBytes, ...text });

  const roomId = ports.newRoomId();
  // Whatever fails first ends the other requests at once, so nothing keeps a process up.
  const abandon = new AbortController();
  const stop = (): void => abandon.abort();
  cancelled.addEventListener('abort', stop, { once: true });
  const joining = ports.joinRoom(roomId, abandon.signal);
  const routing = ports.chooseRoute(abandon.signal);
  // Either may fail before registration settles; that failure is read below, not lost.
  joining.catch(() => undefined);
  routing.catch(() => undefined);
  let seat: SignalingPort;
  let code: string;
  let route: RouteChoice;
  try {
    if (reach === undefined) {
      // Registration's own failure names the problem best, so it is awaited first.
      code = await unlessCancelled(ports.registerCode(roomId, abandon.signal), cancelled);
      issued.code = code;
      issued.roomId = roomId;
    } else {
      // Nobody types anything: the room goes to the one device, and no code is ever issued.
      code = '';
    }
    [seat, route] = await unlessCancelled(Promise.all([joining, routing]), cancelled);
  } catch (error) {
    abandon.abort();
    joining.then(
      (joined) => joined.close(),
      () => undefined,
    );
    throw error;
  } finally {
    cancelled.removeEventListener('abort', stop);
  }
  try {
    if (seat.role !== 'sender') {
      throw SessionFailure.withDetail('ERR_SIGNALING_ERROR', 'the new room already had a sender');
    }
    const to = reach === undefined ? {} : { to: reach.name };
    publish({
      phase: 'waiting-for-peer',
      direction: 'send',
      code,
      ...(options.linkSecret === undefined ? {} : { key: options.linkSecret }),
      ...to,
      files: [...files],
      totalBytes,
      ...text,
    });
    const connecting = (step: { stage: ConnectingStage; retry?: number }): void =>
      publish({ phase: 'connecting', direction: 'send', code, ...to, ...step });
    const channel =
      reach === undefined
        ? await connect(ports, seat, route, cancelled, connecting)
        : await connectReached(ports, { seat, route, roomId, reach }, cancelled, connecting);
    issued.met = true;
    holdToExpectedPeer(channel, reach?.expectPeer ?? options.expectPeer);
    // Read while the connection is up: a closed one no longer knows its certificates.
    const peer = batchPeerOf(channel);
    if (options.afterConnectMs > 0) await delay(ports.clock, options.afterConnectMs, cancelled);
    const watch = new SeatAfterStart(seat);
    const end = await ports.runSession(channel, watch.started, code, false);
    seat.close();
    // A lost link is restored by the flow, and the batch sent anew: what arrived is resumed.
    const setting = { ports, route, cancelled, direction: 'send', publish } as const;
    await carryOn(setting, { end, seat: watch, peer }, async (again, started) => {
      if (options.afterConnectMs > 0) await delay(ports.clock, options.afterConnectMs, cancelled);
      return ports.runSession(again, started, code, true);
    });
  } finally {
    seat.close();
  }
}

/**
 * Delivers the room to the one device while waiting for it to join (docs/protocol.md, "Pair
 * rooms"): a device that does not come within REACH_ANSWER_TIMEOUT_MS, or that the room could not
 * be delivered to, is not online.
 */
async function connectReached(
  ports: SendFlowPorts,
  meeting: { seat: SignalingPort; route: RouteChoice; roomId: string; reach: Reach },
  cancelled: AbortSignal,
  connecting: (step: { stage: ConnectingStage; retry?: number }) => void,
): Promise<ChannelPort> {
  const { seat, route, roomId, reach } = meeting;
  const giveUp = new AbortController();
  const stop = (): void => giveUp.abort();
  cancelled.addEventListener('abort', stop, { once: true });
  let undelivered: { error: unknown } | undefined;
  reach.deliver(roomId, giveUp.signal).catch((error: unknown) => {
    undelivered = { error };
    giveUp.abort();
  });
  const peerJoin = Math.min(ports.timeouts.peerJoin, REACH_ANSWER_TIMEOUT_MS);
  try {
    const timeouts = { ...ports.timeouts, peerJoin };
    return await connect({ clock: ports.clock, timeouts }, seat, route, giveUp.signal, connecting);
  } catch (error) {
    if (cancelled.aborted) throw error;
    if (undelivered !== undefined) throw notOnline(reach.name, undelivered.error);
    if (error instanceof SessionFailure && error.code === 'ERR_CODE_EXPIRED') {
      throw notOnline(reach.name, undefined);
    }
    throw error;
  } finally {
    cancelled.removeEventListener('abort', stop);
    // Once the device came, or the send gave up, there is nothing left to deliver.
    giveUp.abort();
  }
}

/** "“NAME” is not online", with why the room could not be delivered when that is known. */
function notOnline(name: string, error: unknown): SessionFailure {
  if (error instanceof SessionFailure) return error;
  const sentence = `“${name}” is not online`;
  return new SessionFailure(
    'ERR_NOT_ONLINE',
    error === undefined ? sentence : `${sentence} (${errorMessage(error)})`,
  );
}

function delay(clock: Clock, ms: number, cancelled: AbortSignal): Promise<void> {
  return unlessCancelled(new Promise<void>((resolve) => clock.setTimeout(resolve, ms)), cancelled);
}
