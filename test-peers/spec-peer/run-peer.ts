// One attempt of the spec peer, as sender or receiver, over whichever runtime's adapters: the
// same steps for the native peer (node-datachannel, /ws) and the browser one (RTCPeerConnection,
// the event socket).
import { registerCode, resolveCode } from './code-api';
import type { Profile } from './control-frames';
import { Trace, Tripwire, within } from './failure';
import { PEER_JOIN_MS, ROLE_WAIT_MS, TEARDOWN_GRACE_MS } from './limits';
import { receiveBatch, type FileSink, type ReceiveOutcome } from './receive-batch';
import { Rendezvous, type OpenChannel, type Role } from './rendezvous';
import type { PeerFactory, RoomSeat, SeatFactory } from './room-seat';
import { sendBatch, type SendOutcome, type SourceFile } from './send-batch';

export interface SpecRuntime {
  createSeat: SeatFactory;
  createPeer: PeerFactory;
  /** Data-channel spec, "Connection requirement": true for a native stack. */
  raiseAnswerMaxMessageSize: boolean;
}

export interface RunSendOptions {
  serverUrl: string;
  files: readonly SourceFile[];
  profile: Profile;
  /** Called with the code once this peer holds the sender's seat, so a receiver can use it. */
  onCode?: (code: string) => void;
  /** How long a receiver may take to join; the code's lifetime by default. */
  peerJoinMs?: number;
  /** A hostile sender's lie about file `index`'s size (index.ts, `SpecSendOptions`). */
  misannounce?: (index: number) => number | undefined;
}

export interface SendResult extends SendOutcome {
  code: string;
  steps: string[];
}

export interface RunReceiveOptions<Saved> {
  serverUrl: string;
  code: string;
  profile: Profile;
  sink: FileSink<Saved>;
}

export interface ReceiveResult<Saved> extends ReceiveOutcome<Saved> {
  steps: string[];
}

export async function runSend(runtime: SpecRuntime, options: RunSendOptions): Promise<SendResult> {
  const trace = new Trace(`${options.profile}-profile sender`);
  return attempt(runtime, trace, 'sender', async (tripwire, enter) => {
    const roomId = crypto.randomUUID();
    const code = await registerCode(options.serverUrl, roomId);
    trace.record(`registered code ${code}`);
    const rendezvous = await enter(options.serverUrl, roomId);
    // Only now: a receiver that came before this peer held the room would be made its sender.
    options.onCode?.(code);
    await within(
      tripwire.race(rendezvous.peerJoined),
      options.peerJoinMs ?? PEER_JOIN_MS,
      'a receiver joining',
    );
    const open = await tripwire.race(rendezvous.opened);
    const outcome = await sendBatch(
      { ...open, tripwire, trace, profile: options.profile },
      options.files,
      options.misannounce,
    );
    return { ...outcome, code, steps: trace.steps };
  });
}

export async function runReceive<Saved>(
  runtime: SpecRuntime,
  options: RunReceiveOptions<Saved>,
): Promise<ReceiveResult<Saved>> {
  const trace = new Trace(`${options.profile}-profile receiver`);
  return attempt(runtime, trace, 'receiver', async (tripwire, enter) => {
    const roomId = await resolveCode(options.serverUrl, options.code);
    trace.record(`resolved ${options.code} to room ${roomId}`);
    const rendezvous = await enter(options.serverUrl, roomId);
    const open = await tripwire.race(rendezvous.opened);
    const outcome = await receiveBatch(
      { ...open, tripwire, trace, profile: options.profile },
      options.sink,
    );
    return { ...outcome, steps: trace.steps };
  });
}

type Enter = (serverUrl: string, roomId: string) => Promise<Rendezvous>;

/** Runs `body` with a seat it can take; closes channel, connection and seat however it ends. */
async function attempt<T>(
  runtime: SpecRuntime,
  trace: Trace,
  role: Role,
  body: (tripwire: Tripwire, enter: Enter) => Promise<T>,
): Promise<T> {
  const tripwire = new Tripwire();
  let rendezvous: Rendezvous | undefined;
  let seat: RoomSeat | undefined;
  let open: OpenChannel | undefined;
  const enter: Enter = async (serverUrl, roomId) => {
    const joining = new Rendezvous({
      role,
      roomId,
      createPeer: runtime.createPeer,
      raiseAnswerMaxMessageSize: runtime.raiseAnswerMaxMessageSize,
      tripwire,
      trace,
    });
    rendezvous = joining;
    void joining.opened.then((opened) => (open = opened));
    seat = await runtime.createSeat(serverUrl, (event) => joining.handle(event), tripwire);
    joining.attach(seat);
    seat.join(roomId);
    trace.record(`sent join-room ${roomId}`);
    await within(tripwire.race(joining.joined), ROLE_WAIT_MS, 'room-joined');
    return joining;
  };
  try {
    const result = await body(tripwire, enter);
    rendezvous?.finish();
    return result;
  } catch (error) {
    throw trace.explain(error);
  } finally {
    rendezvous?.finish();
    if (open) await closeGracefully(open, trace);
    rendezvous?.close();
    seat?.leave();
  }
}

/**
 * Ends the connection without losing what is still in flight. When the other side closed the
 * channel first, everything it sent has arrived and the connection can go. Otherwise this side
 * closes the channel and waits until the other side provably has every byte (or for the teardown
 * grace): an empty send buffer does not say so, and closing the connection at once drops what is
 * in flight (measured: node-datachannel to Chromium lost the last MiB and the end marker).
 */
async function closeGracefully(open: OpenChannel, trace: Trace): Promise<void> {
  if (open.inbox.closed) return;
  const started = Date.now();
  open.channel.close();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = await Promise.race([
    open.landed.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), TEARDOWN_GRACE_MS))),
  ]);
  clearTimeout(timer);
  trace.record(
    ended
      ? `closed the data channel; it landed after ${Date.now() - started} ms`
      : `closed the data channel; no sign that it landed after ${TEARDOWN_GRACE_MS} ms`,
  );
}
