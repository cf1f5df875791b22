import { binaryFrame, frameByteLength, type Frame } from '../../protocol/frame';
import type { PeerFingerprints } from '../../verify/sas';
import { FrameInbox } from '../frame-inbox';
import type {
  ChannelHandlers,
  ChannelPort,
  Clock,
  ClockTimer,
  PeerConnectionFactory,
} from '../ports';
import {
  LANES_MAX,
  LANE_MESSAGES_BEFORE_ROUTE_MAX,
  LANE_MIN_BATCH_BYTES,
  LANE_REORDER_MAX_BYTES,
  LANE_SETUP_TIMEOUT_MS,
} from '../session-limits';
import { LANE_CHANNEL, LaneConnection } from './lane-connection';
import { isProbe, isProbeAnswer, probeAnswerFrame, probeFrame, probeTimeoutMs } from './lane-probe';
import {
  laneAckFrame,
  laneSignalFrame,
  readLaneMessage,
  stripeFrame,
  type LaneMessage,
} from './lane-messages';
import { laneMarker, LaneReorder } from './lane-reorder';
import { LaneSchedule } from './lane-schedule';

export interface LaneOptions {
  /**
   * Makes one more connection on the first one's route (ICE servers, certificate), with the lanes'
   * negotiated channel.
   */
  createPeer: PeerConnectionFactory;
  /**
   * Sender: the same, for a lane that sends packets sized for a LANE_PROBE_MTU path and proves its
   * path first (`lane-mtu`); a runtime without it never probes.
   */
  createProbingPeer?: PeerConnectionFactory;
  /** Sender: the connections to stripe over, the first included. */
  count: number;
  /**
   * Sender: lanes open only when the first connection's measured round trip is at least this
   * (LANE_MIN_ROUND_TRIP_MS); 0 opens them on any path.
   */
  minRoundTripMs: number;
  /**
   * Called before this side makes its first lane; the function it returns once the lanes are up or
   * will not be. The native engine switches SCTP settings for the lanes' associations there.
   */
  openingLanes?(): () => void;
  /**
   * Receiver: whether both sides agreed `lanes` in their capabilities, asked as each offer comes.
   * The session core sets it; without it no lane is answered (docs/protocol.md, "Lanes").
   */
  agreed?(): boolean;
}

/**
 * What the session reads as the send buffer of a bond whose lanes hold `queued` bytes each: their
 * mean, rounded up, so 0 still means every lane is empty. The session's high and low water are one
 * channel's, and the schedule already bounds what each lane holds. Against the sum, the session
 * paused whenever the fastest lanes' queues filled it, and lanes with little queued ran dry in the
 * meantime (docs/performance.md, "Lanes that ran dry").
 */
export function laneBufferLevel(queued: readonly number[]): number {
  const total = queued.reduce((sum, bytes) => sum + bytes, 0);
  return queued.length === 0 ? 0 : Math.ceil(total / queued.length);
}

/** What a blocked sender's buffer reads: above any threshold, so the session waits for a report. */
const BLOCKED_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * The `lanes` extension (docs/protocol.md, "Lanes"): the session core's channel, made of the
 * first connection and, once the sender widens it, extra connections negotiated over the first.
 * After the stripe every frame of the sender goes, behind a sequence marker, to whichever lane is
 * least behind (lane-schedule.ts), and the receiver hands them on strictly by number
 * (lane-reorder.ts), so the session core on both ends sees one ordered channel: verification,
 * resume and every message work unchanged. Until the stripe, and for a peer that never speaks
 * `lanes`, every frame travels on the first connection as it is.
 */
export class LaneBond implements ChannelPort {
  readonly #primary: ChannelPort;
  readonly #role: 'sender' | 'receiver';
  readonly #options: LaneOptions;
  readonly #clock: Clock;
  readonly #lanes = new Map<number, LaneConnection>();
  readonly #inbox = new FrameInbox();
  readonly #lowListeners = new Set<() => void>();
  readonly #closedListeners = new Set<(reason: string) => void>();
  /** Lane numbers in stripe order once striping began; the first connection is 0. */
  #order: number[] | undefined;
  #schedule: LaneSchedule | undefined;
  #reorder: LaneReorder | undefined;
  /** Receiver: frames of extra lanes that arrived before the stripe message did. */
  readonly #early: { lane: LaneConnection; frame: Frame }[] = [];
  #earlyBytes = 0;
  #primaryGone: string | undefined;
  #threshold = 0;
  #widened = false;
  /** Sender: its lanes probe (`lane-mtu`); false again once they fell back to the usual packets. */
  #probing = false;
  /** Sender: some lane's probe was answered, so the path carries the larger packets. */
  #probePassed = false;
  /**
   * Sender, from the first offer to the stripe: file data waits, because a frame queued on the
   * ordered first connection now would hold back everything the lanes carry after the stripe.
   */
  #opening = false;
  #setupTimer: ClockTimer | undefined;
  /** The runtime's end of `openingLanes`, until the lanes are settled. */
  #settleLanes: (() => void) | undefined;
  #closing = false;
  #closedReason: string | undefined;
  /**
   * Receiver: whether the first connection runs through a TURN relay, once read. Lanes there
   * would each gather with this side's TURN list, taking allocations on a shared server.
   */
  #relayed: boolean | undefined;
  /** Receiver: lane negotiation that came before the route was read, answered once it is. */
  readonly #beforeRoute: LaneMessage[] = [];

  constructor(
    primary: ChannelPort,
    role: 'sender' | 'receiver',
    options: LaneOptions,
    clock: Clock,
  ) {
    this.#primary = primary;
    this.#role = role;
    this.#options = options;
    this.#clock = clock;
    // A route the stack cannot describe counts as relayed here: only lanes depend on it.
    if (role === 'receiver') primary.relayed().then(this.#routeRead, () => this.#routeRead(true));
    primary.listen({
      frame: (frame) => this.#primaryFrame(frame),
      bufferedAmountLow: () => this.#wake(),
      closed: (reason) => {
        this.#primaryGone = reason;
        this.#someLaneGone(reason);
      },
    });
  }

  /** The lanes frames now go over, the first connection included: 1 until striping. */
  get width(): number {
    return this.#order?.length ?? 1;
  }

  /**
   * Sender, once both sides agreed `lanes`: opens the extra connections for a batch of `bytes`
   * over a route that is `relayed` or not (undefined until the first channel has told). Striping
   * starts when the first lane opens, and the others join as they open; a lane not open by the
   * setup deadline is left out, and with none open by then frames go on the first connection.
   * With `probe` (`lane-mtu` agreed) the lanes send larger packets, and a lane counts as open once
   * its probe was answered (docs/protocol.md, "Larger packets").
   */
  widen(batch: { bytes: number; relayed: boolean | undefined; probe?: boolean }): void {
    if (this.#role !== 'sender' || this.#widened || this.#ended) return;
    if (batch.relayed === undefined) return;
    // Decided once, when the receiver's caps arrive: by then SCTP has timed the sender's first
    // frames. A path it could not time is taken as short; a small batch is done on one connection
    // before lanes would have opened; and a relay is a shared server whose allocations per user
    // are often capped, where 11 more at each end could not open and would hold the batch for
    // LANE_SETUP_TIMEOUT_MS (docs/protocol.md, "Lanes").
    this.#widened = true;
    const roundTrip = this.#primary.roundTripMs?.() ?? 0;
    if (roundTrip < this.#options.minRoundTripMs || batch.bytes < LANE_MIN_BATCH_BYTES) return;
    if (batch.relayed) return;
    this.#settleLanes = this.#options.openingLanes?.();
    this.#probing = batch.probe === true && this.#options.createProbingPeer !== undefined;
    this.#offerLanes();
    if (this.#lanes.size === 0) {
      this.#lanesSettled();
      return;
    }
    this.#opening = true;
  }

  /** Sender: makes every extra lane and offers it; the setup deadline counts from here. */
  #offerLanes(): void {
    for (let number = 1; number < Math.min(this.#options.count, LANES_MAX); number += 1) {
      this.#addLane(number, 'offerer', this.#probing);
    }
    this.#setupTimer?.cancel();
    this.#setupTimer = this.#clock.setTimeout(() => this.#setupDeadline(), LANE_SETUP_TIMEOUT_MS);
  }

  send(frame: Frame): boolean {
    if (this.#closedReason !== undefined) return false;
    const schedule = this.#schedule;
    if (schedule === undefined) return this.#primary.send(frame);
    const { lane, seq } = schedule.place(frameByteLength(frame));
    const channel = this.#channelAt(lane);
    if (channel === undefined) return false;
    return channel.send(binaryFrame(laneMarker(seq))) && channel.send(frame);
  }

  bufferedAmount(): number {
    if (this.#opening || this.#schedule?.blocked === true) return BLOCKED_BYTES;
    return laneBufferLevel(this.#sendingChannels().map((channel) => channel.bufferedAmount()));
  }

  setBufferedAmountLowThreshold(bytes: number): void {
    this.#threshold = bytes;
    // Every lane below it means their mean is below it; the session's poll covers a level the
    // events miss.
    for (const channel of this.#sendingChannels()) channel.setBufferedAmountLowThreshold(bytes);
  }

  maxMessageSize(): number {
    return this.#primary.maxMessageSize();
  }

  relayed(): Promise<boolean> {
    return this.#primary.relayed();
  }

  roundTripMs(): number | undefined {
    return this.#primary.roundTripMs?.();
  }

  fingerprints(): PeerFingerprints | undefined {
    return this.#primary.fingerprints();
  }

  get isClosed(): boolean {
    return this.#closedReason !== undefined;
  }

  listen(handlers: ChannelHandlers): () => void {
    const unlistenFrames = handlers.frame && this.#inbox.listen(handlers.frame);
    const { bufferedAmountLow, closed } = handlers;
    if (bufferedAmountLow) this.#lowListeners.add(bufferedAmountLow);
    if (closed) this.#closedListeners.add(closed);
    return () => {
      unlistenFrames?.();
      if (bufferedAmountLow) this.#lowListeners.delete(bufferedAmountLow);
      if (closed) this.#closedListeners.delete(closed);
    };
  }

  close(graceMs: number): void {
    this.#closing = true;
    this.#setupTimer?.cancel();
    this.#lanesSettled();
    for (const lane of this.#lanes.values()) lane.close(graceMs);
    this.#primary.close(graceMs);
  }

  get released(): Promise<void> {
    const channels = [this.#primary, ...[...this.#lanes.values()].map((lane) => lane.channel)];
    return Promise.all(channels.map((channel) => channel?.released)).then(() => undefined);
  }

  get #ended(): boolean {
    return this.#closing || this.#closedReason !== undefined;
  }

  /** The channel at `index` of the stripe order. */
  #channelAt(index: number): ChannelPort | undefined {
    const number = this.#order?.[index] ?? 0;
    return number === 0 ? this.#primary : this.#lanes.get(number)?.channel;
  }

  /** What this side sends on: every lane once the sender stripes, else the first connection. */
  #sendingChannels(): ChannelPort[] {
    const order = this.#schedule === undefined ? [0] : (this.#order ?? [0]);
    return order.flatMap((_, index) => this.#channelAt(index) ?? []);
  }

  #wake(): void {
    for (const low of this.#lowListeners) low();
  }

  #primaryFrame(frame: Frame): void {
    // The receiver's frames after the stripe belong to the order, whatever they hold.
    if (this.#reorder !== undefined) {
      this.#reorder.take(0, frame);
      return;
    }
    const message = readLaneMessage(frame);
    if (message === undefined) this.#inbox.deliver(frame);
    // A malformed lane message never reaches the session; without it the lane stays closed.
    else if (message !== 'invalid') this.#laneMessage(message);
  }

  readonly #routeRead = (relayed: boolean): void => {
    this.#relayed = relayed;
    for (const message of this.#beforeRoute.splice(0)) this.#laneMessage(message);
  };

  #laneMessage(message: LaneMessage): void {
    if (this.#ended) return;
    if (message.type === 'ferry-lane-ack') {
      if (this.#schedule?.acknowledge(message) === true) this.#wake();
      return;
    }
    if (message.type === 'ferry-stripe') {
      if (this.#role === 'receiver') this.#startReordering(message.lanes);
      return;
    }
    if (this.#role === 'receiver') {
      // Not agreed: ignored, as every extension not agreed. Relayed: a sender should not offer.
      if (this.#options.agreed?.() !== true) return;
      if (this.#relayed === undefined) {
        if (this.#beforeRoute.length < LANE_MESSAGES_BEFORE_ROUTE_MAX) {
          this.#beforeRoute.push(message);
        }
        return;
      }
      if (this.#relayed) return;
    }
    const existing = this.#lanes.get(message.lane);
    // A sender whose probes went unanswered offers its lanes again, without probing: each probing
    // lane of a receiver may be made again once, before the stripe.
    const remade =
      existing !== undefined &&
      existing.probe !== 'none' &&
      message.signal.type === 'offer' &&
      message.probe !== true &&
      this.#role === 'receiver' &&
      this.#order === undefined;
    if (existing !== undefined && !remade) {
      existing.apply(message.signal, (reason) => this.#laneGone(existing, reason));
      return;
    }
    if (existing !== undefined) {
      this.#leaveOut(existing);
      this.#lanes.delete(existing.number);
    }
    // Only a sender opens lanes; a receiver answers each lane number once before the stripe (twice
    // when the first offer probed and the second does not).
    if (this.#role !== 'receiver' || this.#order !== undefined) return;
    if (this.#lanes.size === 0) this.#settleLanes ??= this.#options.openingLanes?.();
    const lane = this.#addLane(message.lane, 'answerer', message.probe === true);
    lane?.apply(message.signal, (reason) => this.#laneGone(lane, reason));
  }

  #addLane(
    number: number,
    role: 'offerer' | 'answerer',
    probe: boolean,
  ): LaneConnection | undefined {
    const create =
      (role === 'offerer' && probe && this.#options.createProbingPeer) || this.#options.createPeer;
    let lane: LaneConnection;
    try {
      lane = new LaneConnection(number, create(role, LANE_CHANNEL));
    } catch {
      return undefined;
    }
    if (probe) lane.probe = 'waiting';
    this.#lanes.set(number, lane);
    lane.peer.listen({
      signal: (signal) => {
        // Once striping began every frame of the sender is in the order, where the receiver
        // looks for no lane message: a candidate a lane gathers that late is not sent.
        if (this.#role === 'sender' && this.#order !== undefined) return;
        if (this.#ended || lane.gone !== undefined) return;
        const offered = role === 'offerer' && probe && signal.type === 'offer';
        this.#primary.send(laneSignalFrame(number, signal, offered));
      },
      open: (channel) => this.#laneOpen(lane, channel),
      failed: (reason) => this.#laneGone(lane, reason),
    });
    return lane;
  }

  #laneOpen(lane: LaneConnection, channel: ChannelPort): void {
    if (lane.channel !== undefined) return;
    lane.channel = channel;
    channel.listen({
      frame: (frame) => this.#laneFrame(lane, frame),
      bufferedAmountLow: () => this.#wake(),
      closed: (reason) => this.#laneGone(lane, reason),
    });
    if (this.#ended || lane.gone !== undefined) {
      lane.close(0);
      return;
    }
    if (this.#role === 'sender' && lane.probe === 'waiting') this.#sendProbe(lane, channel);
    else if (this.#role === 'sender') this.#join(lane);
    this.#whenEveryLaneSettled();
  }

  /**
   * Sender: the probing lane's first message, larger than a packet, must be answered before the
   * lane takes frames: a path that drops packets of LANE_PROBE_MTU would swallow them unseen.
   */
  #sendProbe(lane: LaneConnection, channel: ChannelPort): void {
    channel.send(probeFrame());
    const timeoutMs = probeTimeoutMs(this.#primary.roundTripMs?.());
    lane.probeTimer = this.#clock.setTimeout(() => this.#probeUnanswered(lane), timeoutMs);
  }

  /** Sender: the receiver answered the probe, so the lane's path carries the larger packets. */
  #probeAnswered(lane: LaneConnection): void {
    lane.probeTimer?.cancel();
    lane.probe = 'passed';
    this.#probePassed = true;
    this.#join(lane);
    this.#whenEveryLaneSettled();
  }

  /**
   * Sender: no answer in time. When no lane has passed, the path is taken to drop the larger
   * packets, and every lane is made again with libdatachannel's own MTU and offered without a
   * probe. When another lane passed, the path carries them and this probe was likely lost to
   * plain loss: the lane waits on for its answer, and is left out at the setup deadline like a
   * lane that never opened.
   */
  #probeUnanswered(lane: LaneConnection): void {
    if (this.#ended || lane.gone !== undefined || lane.probe !== 'waiting') return;
    if (this.#probePassed || !this.#probing) return;
    this.#probing = false;
    for (const old of this.#lanes.values()) this.#leaveOut(old);
    this.#lanes.clear();
    this.#offerLanes();
  }

  /** Sender: the first lane to open starts the stripe; each later one takes frames from now on. */
  #join(lane: LaneConnection): void {
    if (this.#order === undefined) this.#stripe();
    const index = this.#order?.indexOf(lane.number) ?? -1;
    // Answered after the stripe went, so not in it: the receiver has closed its end.
    if (index <= 0) {
      this.#leaveOut(lane);
      return;
    }
    this.#schedule?.open(index);
    this.setBufferedAmountLowThreshold(this.#threshold);
    this.#wake();
  }

  #laneFrame(lane: LaneConnection, frame: Frame): void {
    if (lane.probe === 'waiting') {
      this.#probeFrame(lane, frame);
      return;
    }
    const { number } = lane;
    const reorder = this.#reorder;
    const index = this.#order?.indexOf(number) ?? -1;
    if (reorder !== undefined && index > 0) {
      reorder.take(index, frame);
      return;
    }
    if (this.#order !== undefined || this.#role === 'sender') return;
    this.#early.push({ lane, frame });
    this.#earlyBytes += frameByteLength(frame);
    if (this.#earlyBytes > LANE_REORDER_MAX_BYTES) {
      this.#end(`the sender sent more than ${LANE_REORDER_MAX_BYTES} bytes before striping`);
    }
  }

  /** A probing lane's first message: the receiver answers the probe, the sender takes the answer. */
  #probeFrame(lane: LaneConnection, frame: Frame): void {
    if (this.#role === 'sender') {
      if (isProbeAnswer(frame)) this.#probeAnswered(lane);
      return;
    }
    if (!isProbe(frame)) {
      this.#end(`lane ${lane.number} did not begin with its probe`);
      return;
    }
    lane.probe = 'passed';
    lane.channel?.send(probeAnswerFrame());
    this.#whenEveryLaneSettled();
  }

  #laneGone(lane: LaneConnection, reason: string): void {
    if (lane.gone !== undefined) return;
    lane.gone = reason;
    if (this.#ended) return;
    const listed = this.#order?.includes(lane.number) === true;
    // A sender's lane that never opened carried nothing: it is only left out.
    if (listed && (this.#role === 'receiver' || lane.channel !== undefined)) {
      this.#someLaneGone(`lane ${lane.number} closed: ${reason}`);
      return;
    }
    lane.close(0);
    this.#whenEveryLaneSettled();
  }

  /** A lane this side gives up on: it carries nothing, and its end is closed. */
  #leaveOut(lane: LaneConnection): void {
    lane.gone ??= 'left out';
    lane.close(0);
  }

  /**
   * A lane of the order, or the first connection, closed. A sender cannot take back what it
   * carried: the link is lost (and restored by the flow when `reconnect` was agreed). A receiver
   * goes on with what the other lanes still deliver (a last frame before a close may be on any of
   * them) until none is left.
   */
  #someLaneGone(reason: string): void {
    if (this.#role === 'sender' || this.#order === undefined) {
      this.#end(reason);
      return;
    }
    const open = this.#order.some((number) =>
      number === 0 ? this.#primaryGone === undefined : this.#lanes.get(number)?.gone === undefined,
    );
    if (!open) this.#end(reason);
  }

  /**
   * Once every lane that matters is open or gone: the setup deadline is moot, the runtime's
   * settings for making lanes go back, and a sender none of whose lanes opened lets its held data
   * go on the first connection. For a receiver the lanes that matter are those the stripe listed.
   */
  #whenEveryLaneSettled(): void {
    if (this.#ended || (this.#role === 'receiver' && this.#order === undefined)) return;
    for (const lane of this.#lanes.values()) {
      if (!lane.ready && lane.gone === undefined) return;
    }
    this.#setupTimer?.cancel();
    this.#lanesSettled();
    if (this.#role === 'sender' && this.#order === undefined) this.#releaseHeldData();
  }

  /** Sender, LANE_SETUP_TIMEOUT_MS after its first offer: a lane not open by now is left out. */
  #setupDeadline(): void {
    for (const lane of this.#lanes.values()) if (!lane.ready) this.#leaveOut(lane);
    this.#whenEveryLaneSettled();
  }

  /**
   * Sender, as its first lane opens: from here on every frame is numbered. The stripe lists every
   * lane the receiver answered, open or not yet; frames go only to those open, and the others
   * join as they open. A lane without an answer yet is left out: the receiver may not have made it.
   */
  #stripe(): void {
    const listed: number[] = [];
    for (const lane of this.#lanes.values()) {
      if (lane.gone === undefined && lane.answered) listed.push(lane.number);
      else this.#leaveOut(lane);
    }
    listed.sort((x, y) => x - y);
    this.#primary.send(stripeFrame(listed));
    const order = [0, ...listed];
    this.#order = order;
    const schedule = new LaneSchedule(order.length, () => this.#clock.now());
    this.#schedule = schedule;
    order.forEach((number, index) => {
      if (this.#lanes.get(number)?.ready === true) schedule.open(index);
    });
    this.setBufferedAmountLowThreshold(this.#threshold);
    this.#releaseHeldData();
  }

  /** The session's held data may go now, striped or on the first connection alone. */
  #releaseHeldData(): void {
    this.#opening = false;
    this.#wake();
  }

  /** Receiver: the sender's frames now come numbered over the first connection and these lanes. */
  #startReordering(lanes: readonly number[]): void {
    const missing = lanes.find((number) => !this.#lanes.has(number));
    if (missing !== undefined) {
      this.#end(`the sender striped over lane ${missing}, which it never opened`);
      return;
    }
    const order = [0, ...lanes];
    this.#order = order;
    // Lanes it did not list will carry nothing; those it listed may still be opening.
    for (const lane of this.#lanes.values()) if (!lanes.includes(lane.number)) this.#leaveOut(lane);
    this.#reorder = new LaneReorder(order.length, {
      deliver: (frame) => this.#inbox.deliver(frame),
      acknowledge: ({ next, received }) => this.#primary.send(laneAckFrame(next, received)),
      violation: (reason) => this.#end(reason),
    });
    for (const { lane, frame } of this.#early.splice(0)) this.#laneFrame(lane, frame);
    this.#earlyBytes = 0;
    this.#whenEveryLaneSettled();
  }

  #lanesSettled(): void {
    this.#settleLanes?.();
    this.#settleLanes = undefined;
  }

  /** The bond is lost as a whole: everything is closed, and the session told once. */
  #end(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    this.#setupTimer?.cancel();
    this.#lanesSettled();
    // After the session's own close the lanes keep their grace to deliver its last frames.
    if (!this.#closing) {
      for (const lane of this.#lanes.values()) lane.close(0);
      this.#primary.close(0);
    }
    for (const closed of this.#closedListeners) closed(reason);
  }
}
