import type { Frame } from '../../protocol/frame';
import type { ChannelPort, Clock } from '../ports';
import { LANE_MESSAGES_BEFORE_ROUTE_MAX, LANE_REORDER_MAX_BYTES } from '../session-limits';
import type { LaneConnection } from './lane-connection';
import { LaneEarlyFrames } from './lane-early-frames';
import { laneAckFrame, type LaneMessage, type LaneSignalMessage } from './lane-messages';
import type { LaneOptions } from './lane-options';
import { isFallbackOffer, isProbe, probeAnswerFrame } from './lane-probe';
import { LaneReorder } from './lane-reorder';
import { LaneSet } from './lane-set';
import { stripeOrder, unmadeLane } from './lane-stripe';

/**
 * The receiver's half of the `lanes` extension (docs/protocol.md, "Lanes"). It answers each lane
 * the sender offers, once both agreed `lanes` and the route is direct; after the stripe it hands
 * the sender's frames on strictly by number (lane-reorder.ts), whichever lane brought them.
 */
export class LaneReceiver extends LaneSet {
  #reorder: LaneReorder | undefined;
  readonly #early = new LaneEarlyFrames();
  /**
   * Whether the first connection runs through a TURN relay, once read. Lanes there would each
   * gather with this side's TURN list, taking allocations on a shared server.
   */
  #relayed: boolean | undefined;
  /** Lane negotiation that came before the route was read, answered once it is. */
  readonly #beforeRoute: LaneSignalMessage[] = [];

  constructor(primary: ChannelPort, options: LaneOptions, clock: Clock) {
    super(primary, options, clock);
    // A route the stack cannot describe counts as relayed here: only lanes depend on it.
    primary.relayed().then(this.#routeRead, () => this.#routeRead(true));
  }

  send(frame: Frame): boolean {
    return !this.isClosed && this.primary.send(frame);
  }

  /** Its own frames all go on the first connection. */
  bufferedAmount(): number {
    return this.primary.bufferedAmount();
  }

  setBufferedAmountLowThreshold(bytes: number): void {
    this.primary.setBufferedAmountLowThreshold(bytes);
  }

  /** After the stripe the sender's frames on the first connection belong to the order, whatever they hold. */
  protected override primaryFrame(frame: Frame): void {
    if (this.#reorder === undefined) super.primaryFrame(frame);
    else this.#reorder.take(0, frame);
  }

  protected laneMessage(message: LaneMessage): void {
    if (message.type === 'ferry-stripe') this.#startReordering(message.lanes);
    else if (message.type === 'ferry-lane') this.#laneSignal(message);
  }

  protected laneFrame(lane: LaneConnection, frame: Frame): void {
    if (lane.probe === 'waiting') {
      this.#probeFrame(lane, frame);
      return;
    }
    const index = this.order?.indexOf(lane.number) ?? -1;
    if (this.#reorder !== undefined && index > 0) {
      this.#reorder.take(index, frame);
      return;
    }
    if (this.order !== undefined) return;
    if (!this.#early.keep(lane, frame)) {
      this.end(`the sender sent more than ${LANE_REORDER_MAX_BYTES} bytes before striping`);
    }
  }

  protected laneOpened(): void {
    // Nothing to do: the sender's frames tell this side what each lane is for.
  }

  /** Every lane the stripe listed may hold frames due next. */
  protected carried(lane: LaneConnection): boolean {
    return this.listed(lane);
  }

  /**
   * Goes on with what the other lanes still deliver (a last frame before a close may be on any of
   * them) until none is left; before the stripe the first connection is all there is.
   */
  protected someLaneGone(reason: string): void {
    const order = this.order;
    if (order === undefined) {
      this.end(reason);
      return;
    }
    const open = order.some((number) =>
      number === 0 ? this.primaryOpen : this.lanes.get(number)?.gone === undefined,
    );
    if (!open) this.end(reason);
  }

  /** The lanes that matter are those the stripe listed. */
  protected whenEveryLaneSettled(): void {
    if (this.order !== undefined && this.everyLaneSettled()) this.settle();
  }

  readonly #routeRead = (relayed: boolean): void => {
    this.#relayed = relayed;
    for (const message of this.#beforeRoute.splice(0)) {
      if (!this.ended) this.#laneSignal(message);
    }
  };

  #laneSignal(message: LaneSignalMessage): void {
    // Not agreed: ignored, as every extension not agreed. Relayed: a sender should not offer.
    if (this.options.agreed?.() !== true) return;
    if (this.#relayed === undefined) {
      if (this.#beforeRoute.length < LANE_MESSAGES_BEFORE_ROUTE_MAX)
        this.#beforeRoute.push(message);
      return;
    }
    if (this.#relayed) return;
    const striped = this.order !== undefined;
    const existing = this.lanes.get(message.lane);
    if (existing !== undefined && !isFallbackOffer(existing, message, striped)) {
      this.negotiate(existing, message.signal);
      return;
    }
    if (existing !== undefined) {
      this.leaveOut(existing);
      this.lanes.delete(existing.number);
    }
    // Each lane number is answered once before the stripe (twice for the probe's fallback).
    if (striped) return;
    if (this.lanes.size === 0) this.beginOpening();
    const lane = this.addLane(
      message.lane,
      this.options.createPeer,
      'answerer',
      message.probe === true,
    );
    if (lane !== undefined) this.negotiate(lane, message.signal);
  }

  /** A probing lane's first message must be the probe, which is answered. */
  #probeFrame(lane: LaneConnection, frame: Frame): void {
    if (!isProbe(frame)) {
      this.end(`lane ${lane.number} did not begin with its probe`);
      return;
    }
    lane.probe = 'passed';
    lane.channel?.send(probeAnswerFrame());
    this.whenEveryLaneSettled();
  }

  /** The sender's frames now come numbered over the first connection and these lanes. */
  #startReordering(listed: readonly number[]): void {
    const missing = unmadeLane(listed, this.lanes);
    if (missing !== undefined) {
      this.end(`the sender striped over lane ${missing}, which it never opened`);
      return;
    }
    const order = stripeOrder(listed);
    this.order = order;
    // Lanes it did not list will carry nothing; those it listed may still be opening.
    for (const lane of this.lanes.values()) if (!listed.includes(lane.number)) this.leaveOut(lane);
    this.#reorder = new LaneReorder(order.length, {
      deliver: (frame) => this.inbox.deliver(frame),
      acknowledge: ({ next, received }) => this.primary.send(laneAckFrame(next, received)),
      violation: (reason) => this.end(reason),
    });
    for (const { lane, frame } of this.#early.take()) this.laneFrame(lane, frame);
    this.whenEveryLaneSettled();
  }
}
