import type { Frame } from '../../protocol/frame';
import type { PeerFingerprints } from '../../verify/sas';
import { FrameInbox } from '../frame-inbox';
import { outgoingSignal } from '../max-message-size';
import type { NegotiationSignal } from '../negotiation-signal';
import type { ChannelHandlers, ChannelPort, Clock, PeerConnectionFactory } from '../ports';
import { LANE_CHANNEL, LaneConnection } from './lane-connection';
import { laneSignalFrame, readLaneMessage, type LaneMessage } from './lane-messages';
import type { LaneOptions } from './lane-options';

/**
 * The `lanes` extension's one channel (docs/protocol.md, "Lanes"), what both roles share: the
 * first connection, the extra connections negotiated over it, and the stripe order once there is
 * one. The session core sees one ordered channel. The sender's half (lane-sender.ts) opens lanes
 * and stripes over them; the receiver's (lane-receiver.ts) answers them and puts the frames back
 * in order. Until the stripe, and for a peer that never speaks `lanes`, every frame travels on the
 * first connection as it is.
 */
export abstract class LaneSet implements ChannelPort {
  protected readonly primary: ChannelPort;
  protected readonly options: LaneOptions;
  protected readonly clock: Clock;
  protected readonly lanes = new Map<number, LaneConnection>();
  /** Lane numbers in stripe order once striping began; the first connection is 0. */
  protected order: number[] | undefined;
  protected readonly inbox = new FrameInbox();
  #primaryGone: string | undefined;
  readonly #lowListeners = new Set<() => void>();
  readonly #closedListeners = new Set<(reason: string) => void>();
  /** The runtime's end of `openingLanes`, until the lanes are settled. */
  #settleLanes: (() => void) | undefined;
  #closing = false;
  #closedReason: string | undefined;

  constructor(primary: ChannelPort, options: LaneOptions, clock: Clock) {
    this.primary = primary;
    this.options = options;
    this.clock = clock;
    primary.listen({
      frame: (frame) => this.primaryFrame(frame),
      bufferedAmountLow: () => this.wake(),
      closed: (reason) => {
        this.#primaryGone = reason;
        this.someLaneGone(reason);
      },
    });
  }

  abstract send(frame: Frame): boolean;
  abstract bufferedAmount(): number;
  abstract setBufferedAmountLowThreshold(bytes: number): void;
  /** A lane message from the other end, read off the first connection. */
  protected abstract laneMessage(message: LaneMessage): void;
  /** A frame on a lane's channel. */
  protected abstract laneFrame(lane: LaneConnection, frame: Frame): void;
  /** A lane's channel opened, while the set goes on. */
  protected abstract laneOpened(lane: LaneConnection, channel: ChannelPort): void;
  /** Whether losing `lane` loses frames it carried, and so the link. */
  protected abstract carried(lane: LaneConnection): boolean;
  /** A lane of the order, or the first connection, closed. */
  protected abstract someLaneGone(reason: string): void;
  /** A lane opened, was proven or went: the lanes may all be settled now. */
  protected abstract whenEveryLaneSettled(): void;

  /** The lanes frames now go over, the first connection included: 1 until striping. */
  get width(): number {
    return this.order?.length ?? 1;
  }

  maxMessageSize(): number {
    return this.primary.maxMessageSize();
  }

  relayed(): Promise<boolean> {
    return this.primary.relayed();
  }

  roundTripMs(): number | undefined {
    return this.primary.roundTripMs?.();
  }

  fingerprints(): PeerFingerprints | undefined {
    return this.primary.fingerprints();
  }

  get isClosed(): boolean {
    return this.#closedReason !== undefined;
  }

  listen(handlers: ChannelHandlers): () => void {
    const unlistenFrames = handlers.frame && this.inbox.listen(handlers.frame);
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
    this.settle();
    for (const lane of this.lanes.values()) lane.close(graceMs);
    this.primary.close(graceMs);
  }

  get released(): Promise<void> {
    const channels = [this.primary, ...[...this.lanes.values()].map((lane) => lane.channel)];
    return Promise.all(channels.map((channel) => channel?.released)).then(() => undefined);
  }

  protected get ended(): boolean {
    return this.#closing || this.#closedReason !== undefined;
  }

  protected get primaryOpen(): boolean {
    return this.#primaryGone === undefined;
  }

  /** Whether `lane` is in the stripe order. */
  protected listed(lane: LaneConnection): boolean {
    return this.order?.includes(lane.number) === true;
  }

  /** The channel at `index` of the stripe order. */
  protected channelAt(index: number): ChannelPort | undefined {
    const number = this.order?.[index] ?? 0;
    return number === 0 ? this.primary : this.lanes.get(number)?.channel;
  }

  protected wake(): void {
    for (const low of this.#lowListeners) low();
  }

  /** A frame of the first connection: a lane message, or the session's. */
  protected primaryFrame(frame: Frame): void {
    const message = readLaneMessage(frame);
    if (message === undefined) this.inbox.deliver(frame);
    // A malformed lane message never reaches the session; without it the lane stays closed.
    else if (message !== 'invalid' && !this.ended) this.laneMessage(message);
  }

  /** The runtime's settings for making lanes apply from now until the lanes are settled. */
  protected beginOpening(): void {
    this.#settleLanes ??= this.options.openingLanes?.();
  }

  /** The lanes are open or gone, or will not be made: the runtime's settings go back. */
  protected settle(): void {
    this.#settleLanes?.();
    this.#settleLanes = undefined;
  }

  /**
   * Makes lane `number` with `create` and sends its negotiation over the first connection; with
   * `probe` it proves its path before carrying frames (`lane-mtu`), and its offer says so.
   */
  protected addLane(
    number: number,
    create: PeerConnectionFactory,
    role: 'offerer' | 'answerer',
    probe: boolean,
  ): LaneConnection | undefined {
    let lane: LaneConnection;
    try {
      lane = new LaneConnection(number, create(role, LANE_CHANNEL));
    } catch {
      return undefined;
    }
    if (probe) lane.probe = 'waiting';
    this.lanes.set(number, lane);
    lane.peer.listen({
      signal: (signal) => {
        if (this.ended || lane.gone !== undefined || !this.negotiating()) return;
        const offered = probe && signal.type === 'offer';
        this.primary.send(laneSignalFrame(number, outgoingSignal(signal), offered));
      },
      open: (channel) => this.#laneOpen(lane, channel),
      failed: (reason) => this.laneGone(lane, reason),
    });
    return lane;
  }

  /** Whether lanes may still send negotiation payloads over the first connection. */
  protected negotiating(): boolean {
    return true;
  }

  /** Applies the other end's description or candidate for `lane`. */
  protected negotiate(lane: LaneConnection, signal: NegotiationSignal): void {
    lane.apply(signal, (reason) => this.laneGone(lane, reason));
  }

  #laneOpen(lane: LaneConnection, channel: ChannelPort): void {
    if (lane.channel !== undefined) return;
    lane.channel = channel;
    channel.listen({
      frame: (frame) => this.laneFrame(lane, frame),
      bufferedAmountLow: () => this.wake(),
      closed: (reason) => this.laneGone(lane, reason),
    });
    if (this.ended || lane.gone !== undefined) {
      lane.close(0);
      return;
    }
    this.laneOpened(lane, channel);
    this.whenEveryLaneSettled();
  }

  protected laneGone(lane: LaneConnection, reason: string): void {
    if (lane.gone !== undefined) return;
    lane.gone = reason;
    if (this.ended) return;
    if (this.carried(lane)) {
      this.someLaneGone(`lane ${lane.number} closed: ${reason}`);
      return;
    }
    lane.close(0);
    this.whenEveryLaneSettled();
  }

  /** A lane this side gives up on: it carries nothing, and its end is closed. */
  protected leaveOut(lane: LaneConnection): void {
    lane.gone ??= 'left out';
    lane.close(0);
  }

  /** Every lane is open (and proven, when it probes) or gone. */
  protected everyLaneSettled(): boolean {
    if (this.ended) return false;
    for (const lane of this.lanes.values()) {
      if (!lane.ready && lane.gone === undefined) return false;
    }
    return true;
  }

  /** The set is lost as a whole: everything is closed, and the session told once. */
  protected end(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    this.settle();
    // After the session's own close the lanes keep their grace to deliver its last frames.
    if (!this.#closing) {
      for (const lane of this.lanes.values()) lane.close(0);
      this.primary.close(0);
    }
    for (const closed of this.#closedListeners) closed(reason);
  }
}
