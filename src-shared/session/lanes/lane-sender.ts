import { binaryFrame, frameByteLength, type Frame } from '../../protocol/frame';
import type { ChannelPort, Clock } from '../ports';
import { LANES_MAX, LANE_MIN_BATCH_BYTES } from '../session-limits';
import { laneBufferLevel } from './lane-buffer-level';
import type { LaneConnection } from './lane-connection';
import { stripeFrame, type LaneMessage } from './lane-messages';
import type { LaneOptions } from './lane-options';
import { isProbeAnswer, LaneProbing, probeFrame, probeTimeoutMs } from './lane-probe';
import { laneMarker } from './lane-reorder';
import { LaneSchedule } from './lane-schedule';
import { LaneSet } from './lane-set';
import { LaneSetupDeadline } from './lane-setup-deadline';
import { lanesToStripe, stripeOrder } from './lane-stripe';

/** What a blocked sender's buffer reads: above any threshold, so the session waits for a report. */
const BLOCKED_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * The sender's half of the `lanes` extension (docs/protocol.md, "Lanes"). Once it widens, it
 * offers the extra lanes over the first connection; as the first opens it sends the stripe, and
 * from then every frame goes, behind a sequence marker, to whichever lane is least behind
 * (lane-schedule.ts).
 */
export class LaneSender extends LaneSet {
  #schedule: LaneSchedule | undefined;
  readonly #deadline: LaneSetupDeadline;
  #probing = new LaneProbing(false);
  #threshold = 0;
  #widened = false;
  /**
   * From the first offer to the stripe: file data waits, because a frame queued on the ordered
   * first connection now would hold back everything the lanes carry after the stripe.
   */
  #opening = false;

  constructor(primary: ChannelPort, options: LaneOptions, clock: Clock) {
    super(primary, options, clock);
    this.#deadline = new LaneSetupDeadline(clock);
  }

  /**
   * Once both sides agreed `lanes`: opens the extra connections for a batch of `bytes` over a
   * route that is `relayed` or not (undefined until the first channel has told). Striping starts
   * when the first lane opens, and the others join as they open; a lane not open by the setup
   * deadline is left out, and with none open by then frames go on the first connection. With
   * `probe` (`lane-mtu` agreed) the lanes send larger packets, and a lane counts as open once its
   * probe was answered (docs/protocol.md, "Larger packets").
   */
  widen(batch: { bytes: number; relayed: boolean | undefined; probe?: boolean }): void {
    if (this.#widened || this.ended) return;
    if (batch.relayed === undefined) return;
    // Decided once, when the receiver's caps arrive: by then SCTP has timed the sender's first
    // frames. A path it could not time is taken as short; a small batch is done on one connection
    // before lanes would have opened; and a relay is a shared server whose allocations per user
    // are often capped, where 11 more at each end could not open and would hold the batch for
    // LANE_SETUP_TIMEOUT_MS (docs/protocol.md, "Lanes").
    this.#widened = true;
    const roundTrip = this.primary.roundTripMs?.() ?? 0;
    if (roundTrip < this.options.minRoundTripMs || batch.bytes < LANE_MIN_BATCH_BYTES) return;
    if (batch.relayed) return;
    this.beginOpening();
    this.#probing = new LaneProbing(
      batch.probe === true && this.options.createProbingPeer !== undefined,
    );
    this.#offerLanes();
    if (this.lanes.size === 0) {
      this.settle();
      return;
    }
    this.#opening = true;
  }

  send(frame: Frame): boolean {
    if (this.isClosed) return false;
    const schedule = this.#schedule;
    if (schedule === undefined) return this.primary.send(frame);
    const { lane, seq } = schedule.place(frameByteLength(frame));
    const channel = this.channelAt(lane);
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

  protected override settle(): void {
    this.#deadline.cancel();
    super.settle();
  }

  /** Once striping began every frame is in the order, where the receiver looks for no lane message. */
  protected override negotiating(): boolean {
    return this.order === undefined;
  }

  protected laneMessage(message: LaneMessage): void {
    if (message.type === 'ferry-lane-ack') {
      if (this.#schedule?.acknowledge(message) === true) this.wake();
      return;
    }
    if (message.type !== 'ferry-lane') return;
    const lane = this.lanes.get(message.lane);
    if (lane !== undefined) this.negotiate(lane, message.signal);
  }

  /** Only a probing lane's answer comes back on a lane; the receiver sends nothing else there. */
  protected laneFrame(lane: LaneConnection, frame: Frame): void {
    if (lane.probe === 'waiting' && isProbeAnswer(frame)) this.#probeAnswered(lane);
  }

  protected laneOpened(lane: LaneConnection, channel: ChannelPort): void {
    if (lane.probe === 'waiting') this.#sendProbe(lane, channel);
    else this.#join(lane);
  }

  /** A lane that never opened carried nothing: it is only left out. */
  protected carried(lane: LaneConnection): boolean {
    return this.listed(lane) && lane.channel !== undefined;
  }

  /** A sender cannot take back what a lane carried: the link is lost (restored by `reconnect`). */
  protected someLaneGone(reason: string): void {
    this.end(reason);
  }

  /** None of its lanes open: the held data goes on the first connection. */
  protected whenEveryLaneSettled(): void {
    if (!this.everyLaneSettled()) return;
    this.settle();
    if (this.order === undefined) this.#releaseHeldData();
  }

  /** Makes every extra lane and offers it; the setup deadline counts from here. */
  #offerLanes(): void {
    const probe = this.#probing.probing;
    const create = (probe && this.options.createProbingPeer) || this.options.createPeer;
    for (let number = 1; number < Math.min(this.options.count, LANES_MAX); number += 1) {
      this.addLane(number, create, 'offerer', probe);
    }
    this.#deadline.start(() => this.#setupDeadline());
  }

  /** What this side sends on: every lane once it stripes, else the first connection. */
  #sendingChannels(): ChannelPort[] {
    const order = this.#schedule === undefined ? [0] : (this.order ?? [0]);
    return order.flatMap((_, index) => this.channelAt(index) ?? []);
  }

  /**
   * The probing lane's first message, larger than a packet, must be answered before the lane
   * takes frames: a path that drops packets of LANE_PROBE_MTU would swallow them unseen.
   */
  #sendProbe(lane: LaneConnection, channel: ChannelPort): void {
    channel.send(probeFrame());
    const timeoutMs = probeTimeoutMs(this.primary.roundTripMs?.());
    lane.probeTimer = this.clock.setTimeout(() => this.#probeUnanswered(lane), timeoutMs);
  }

  #probeAnswered(lane: LaneConnection): void {
    lane.probeTimer?.cancel();
    lane.probe = 'passed';
    this.#probing.answered();
    this.#join(lane);
    this.whenEveryLaneSettled();
  }

  /**
   * No answer in time. When the lanes fall back (lane-probe.ts), every lane is made again and
   * offered without a probe; otherwise the lane waits on for its answer, and is left out at the
   * setup deadline like a lane that never opened.
   */
  #probeUnanswered(lane: LaneConnection): void {
    if (this.ended || lane.gone !== undefined || lane.probe !== 'waiting') return;
    if (!this.#probing.fallsBack()) return;
    for (const old of this.lanes.values()) this.leaveOut(old);
    this.lanes.clear();
    this.#offerLanes();
  }

  /** The first lane to open starts the stripe; each later one takes frames from now on. */
  #join(lane: LaneConnection): void {
    if (this.order === undefined) this.#stripe();
    const index = this.order?.indexOf(lane.number) ?? -1;
    // Answered after the stripe went, so not in it: the receiver has closed its end.
    if (index <= 0) {
      this.leaveOut(lane);
      return;
    }
    this.#schedule?.open(index);
    this.setBufferedAmountLowThreshold(this.#threshold);
    this.wake();
  }

  /** LANE_SETUP_TIMEOUT_MS after the latest offers: a lane not open by now is left out. */
  #setupDeadline(): void {
    for (const lane of this.lanes.values()) if (!lane.ready) this.leaveOut(lane);
    this.whenEveryLaneSettled();
  }

  /** As its first lane opens: from here on every frame is numbered (lane-stripe.ts). */
  #stripe(): void {
    const { listed, leftOut } = lanesToStripe(this.lanes.values());
    for (const lane of leftOut) this.leaveOut(lane);
    this.primary.send(stripeFrame(listed));
    const order = stripeOrder(listed);
    this.order = order;
    const schedule = new LaneSchedule(order.length, () => this.clock.now());
    this.#schedule = schedule;
    order.forEach((number, index) => {
      if (this.lanes.get(number)?.ready === true) schedule.open(index);
    });
    this.setBufferedAmountLowThreshold(this.#threshold);
    this.#releaseHeldData();
  }

  /** The session's held data may go now, striped or on the first connection alone. */
  #releaseHeldData(): void {
    this.#opening = false;
    this.wake();
  }
}
