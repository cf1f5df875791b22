import { frameByteLength, type Frame } from '../../protocol/frame';
import type { PeerFingerprints } from '../../verify/sas';
import { FrameInbox } from '../frame-inbox';
import { dataChannelMid, type NegotiationSignal } from '../negotiation-signal';
import type {
  ChannelHandlers,
  ChannelPort,
  Clock,
  ClockTimer,
  PeerConnectionFactory,
  PeerConnectionPort,
} from '../ports';
import { LANES_MAX, LANE_REORDER_MAX_BYTES, LANE_SETUP_TIMEOUT_MS } from '../session-limits';
import { laneSignalFrame, readLaneMessage, stripeFrame, type LaneMessage } from './lane-messages';

export interface LaneOptions {
  /** Makes one more connection on the first one's route (ICE servers, certificate). */
  createPeer: PeerConnectionFactory;
  /** Sender: the connections to stripe over, the first included. */
  count: number;
}

/** One extra connection of the bond and, once it is open, its channel. */
class Lane {
  channel: ChannelPort | undefined;
  /** The lane cannot carry anything (any more); why. */
  gone: string | undefined;
  /** Frames that arrived on this lane ahead of their turn (receiver). */
  readonly held: Frame[] = [];
  #remoteSdp: string | undefined;
  #candidates: NegotiationSignal[] = [];

  constructor(
    readonly number: number,
    readonly peer: PeerConnectionPort,
  ) {}

  /** Applies the other side's description or candidate; candidates wait for the description. */
  apply(signal: NegotiationSignal, fail: (reason: string) => void): void {
    if (signal.type !== 'candidate') {
      if (this.#remoteSdp !== undefined) return;
      const { sdp, type } = signal;
      this.#remoteSdp = sdp;
      this.peer.setRemoteDescription({ type, sdp }).then(
        () => this.#candidates.splice(0).forEach((held) => this.apply(held, fail)),
        (error: unknown) => fail(`its description was refused: ${String(error)}`),
      );
      return;
    }
    if (this.#remoteSdp === undefined) {
      this.#candidates.push(signal);
      return;
    }
    const { candidate, sdpMid, sdpMLineIndex = 0 } = signal.candidate;
    const mid = sdpMid ?? dataChannelMid(this.#remoteSdp, sdpMLineIndex);
    if (mid === undefined) return;
    // One bad candidate costs only its route, as on the first connection.
    this.peer.addRemoteCandidate({ candidate, sdpMid: mid, sdpMLineIndex }).catch(() => undefined);
  }

  close(graceMs: number): void {
    if (this.channel === undefined) this.peer.close();
    else this.channel.close(graceMs);
  }
}

/**
 * The `lanes` extension (docs/protocol.md, "Lanes"): the session core's channel, made of the
 * first connection and, once the sender widens it, extra connections negotiated over the first.
 * The sender's frames then go round-robin over every lane, the first included, and the receiver
 * takes them back in the same turn order, so the session core on both ends sees one ordered
 * channel: verification, resume and every message work unchanged. Until a `ferry-stripe`, and
 * for a peer that never speaks `lanes`, every frame travels on the first connection as it is.
 *
 * Why round-robin and not "the emptiest lane": the receiver needs no sequence numbers, and what
 * it may hold ahead of a slow lane stays bounded by the other lanes' windows, because the
 * sender's send buffer (all lanes together) stops the session once the slow lane backs up.
 */
export class LaneBond implements ChannelPort {
  readonly #primary: ChannelPort;
  readonly #role: 'sender' | 'receiver';
  readonly #options: LaneOptions;
  readonly #clock: Clock;
  readonly #lanes = new Map<number, Lane>();
  readonly #inbox = new FrameInbox();
  readonly #lowListeners = new Set<() => void>();
  readonly #closedListeners = new Set<(reason: string) => void>();
  /** Frames of the first connection held for their turn once striping began (receiver). */
  readonly #primaryHeld: Frame[] = [];
  #primaryGone: string | undefined;
  #heldBytes = 0;
  /** Lanes in turn order once striping began; the first connection is 0. */
  #order: number[] | undefined;
  /** The sender's next frame goes, or the receiver's next frame comes, on lane #order[#turn % n]. */
  #turn = 0;
  #threshold = 0;
  #widened = false;
  #setupTimer: ClockTimer | undefined;
  #closing = false;
  #closedReason: string | undefined;

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
    primary.listen({
      frame: (frame) => this.#primaryFrame(frame),
      bufferedAmountLow: () => this.#lowListeners.forEach((low) => low()),
      closed: (reason) => {
        this.#primaryGone = reason;
        if (this.#order === undefined || this.#role === 'sender') this.#end(reason);
        else this.#drain();
      },
    });
  }

  /** The lanes frames now go over, the first connection included: 1 until striping. */
  get width(): number {
    return this.#order?.length ?? 1;
  }

  /**
   * Sender, once both sides agreed `lanes`: opens the extra connections. Striping starts when all
   * are open, or at the setup deadline with those that are; until then frames go as they are.
   */
  widen(): void {
    if (this.#role !== 'sender' || this.#widened || this.#ended) return;
    this.#widened = true;
    for (let number = 1; number < Math.min(this.#options.count, LANES_MAX); number += 1) {
      this.#addLane(number, 'offerer');
    }
    if (this.#lanes.size === 0) return;
    this.#setupTimer = this.#clock.setTimeout(() => this.#stripe(), LANE_SETUP_TIMEOUT_MS);
  }

  send(frame: Frame): boolean {
    if (this.#closedReason !== undefined) return false;
    const order = this.#order;
    // Only the sender's frames take turns; the receiver's answers stay on the first connection.
    if (order === undefined || this.#role === 'receiver') return this.#primary.send(frame);
    const number = order[this.#turn % order.length];
    this.#turn += 1;
    return this.#channelOf(number)?.send(frame) ?? false;
  }

  bufferedAmount(): number {
    return this.#openChannels().reduce((sum, channel) => sum + channel.bufferedAmount(), 0);
  }

  setBufferedAmountLowThreshold(bytes: number): void {
    this.#threshold = bytes;
    const channels = this.#openChannels();
    // Round-robin keeps the lanes level, so each reaching its share means the sum reached it;
    // the session's poll covers a level the events miss.
    const share = Math.floor(bytes / channels.length);
    for (const channel of channels) channel.setBufferedAmountLowThreshold(share);
  }

  maxMessageSize(): number {
    return this.#primary.maxMessageSize();
  }

  relayed(): Promise<boolean> {
    return this.#primary.relayed();
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

  #channelOf(number: number): ChannelPort | undefined {
    return number === 0 ? this.#primary : this.#lanes.get(number)?.channel;
  }

  #openChannels(): ChannelPort[] {
    const numbers = (this.#role === 'sender' ? this.#order : undefined) ?? [0];
    return numbers.flatMap((number) => this.#channelOf(number) ?? []);
  }

  #primaryFrame(frame: Frame): void {
    // The receiver's frames after the stripe are the first lane's turns, whatever they hold.
    if (this.#role === 'receiver' && this.#order !== undefined) {
      this.#hold(this.#primaryHeld, frame);
      return;
    }
    const message = readLaneMessage(frame);
    if (message === undefined) this.#inbox.deliver(frame);
    // A malformed lane message costs only the lane it was for: it never reaches the session.
    else if (message !== 'invalid') this.#laneMessage(message);
  }

  #laneMessage(message: LaneMessage): void {
    if (this.#ended) return;
    if (message.type === 'ferry-stripe') {
      if (this.#role === 'receiver') this.#startTakingTurns(message.lanes);
      return;
    }
    const existing = this.#lanes.get(message.lane);
    if (existing !== undefined) {
      existing.apply(message.signal, (reason) => this.#laneGone(existing, reason));
      return;
    }
    // Only a sender opens lanes; a receiver answers each lane number once.
    if (this.#role !== 'receiver' || this.#order !== undefined) return;
    this.#addLane(message.lane, 'answerer')?.apply(message.signal, (reason) =>
      this.#laneGone(this.#lanes.get(message.lane), reason),
    );
  }

  #addLane(number: number, role: 'offerer' | 'answerer'): Lane | undefined {
    let peer: PeerConnectionPort;
    try {
      peer = this.#options.createPeer(role);
    } catch {
      return undefined;
    }
    const lane = new Lane(number, peer);
    this.#lanes.set(number, lane);
    peer.listen({
      signal: (signal) => {
        // Once striping began every frame of the sender has its turn: late candidates of a lane
        // that is already open are not needed, and would break the order.
        if (this.#role === 'sender' && this.#order !== undefined) return;
        if (!this.#ended) this.#primary.send(laneSignalFrame(number, signal));
      },
      open: (channel) => this.#laneOpen(lane, channel),
      failed: (reason) => this.#laneGone(lane, reason),
    });
    return lane;
  }

  #laneOpen(lane: Lane, channel: ChannelPort): void {
    if (lane.channel !== undefined) return;
    lane.channel = channel;
    channel.listen({
      frame: (frame) => this.#hold(lane.held, frame),
      bufferedAmountLow: () => this.#lowListeners.forEach((low) => low()),
      closed: (reason) => this.#laneGone(lane, reason),
    });
    if (this.#ended) lane.close(0);
    else if (this.#role === 'sender') this.#stripeWhenSettled();
  }

  #laneGone(lane: Lane | undefined, reason: string): void {
    if (lane === undefined || lane.gone !== undefined) return;
    lane.gone = reason;
    if (this.#ended) return;
    const striping = this.#order?.includes(lane.number) === true;
    if (this.#role === 'receiver') {
      if (striping) this.#drain();
      return;
    }
    // A sender cannot take back what a lost lane had: the batch goes on after a reconnect.
    if (striping) this.#end(`lane ${lane.number} closed: ${reason}`);
    else {
      lane.close(0);
      this.#stripeWhenSettled();
    }
  }

  #stripeWhenSettled(): void {
    const lanes = [...this.#lanes.values()];
    if (lanes.every((lane) => lane.channel !== undefined || lane.gone !== undefined)) {
      this.#stripe();
    }
  }

  /** Sender: from here on every frame takes its turn over the lanes that opened. */
  #stripe(): void {
    if (this.#order !== undefined || this.#ended) return;
    this.#setupTimer?.cancel();
    const open: number[] = [];
    for (const lane of this.#lanes.values()) {
      const usable =
        lane.gone === undefined &&
        lane.channel !== undefined &&
        lane.channel.maxMessageSize() >= this.#primary.maxMessageSize();
      if (usable) open.push(lane.number);
      else lane.close(0);
    }
    if (open.length === 0) return;
    open.sort((x, y) => x - y);
    this.#primary.send(stripeFrame(open));
    this.#order = [0, ...open];
    this.setBufferedAmountLowThreshold(this.#threshold);
  }

  /** Receiver: the sender's frames now take turns over the first connection and these lanes. */
  #startTakingTurns(lanes: readonly number[]): void {
    const missing = lanes.find((number) => !this.#lanes.has(number));
    if (missing !== undefined) {
      this.#end(`the sender striped over lane ${missing}, which it never opened`);
      return;
    }
    this.#order = [0, ...lanes];
    // Lanes it did not list will carry nothing.
    for (const lane of this.#lanes.values()) if (!lanes.includes(lane.number)) lane.close(0);
    this.#drain();
  }

  #hold(queue: Frame[], frame: Frame): void {
    if (this.#closedReason !== undefined) return;
    queue.push(frame);
    this.#heldBytes += frameByteLength(frame);
    if (this.#heldBytes > LANE_REORDER_MAX_BYTES) {
      this.#end(`the sender ran more than ${LANE_REORDER_MAX_BYTES} bytes ahead on one lane`);
      return;
    }
    this.#drain();
  }

  /** Receiver: hands the session every frame whose turn has come, in turn order. */
  #drain(): void {
    const order = this.#order;
    while (order !== undefined && this.#closedReason === undefined) {
      const number = order[this.#turn % order.length];
      const lane = this.#lanes.get(number);
      const queue = number === 0 ? this.#primaryHeld : lane?.held;
      const frame = queue?.shift();
      if (frame === undefined) {
        // A lane that closed with its turn still to come: nothing after it can arrive in order.
        const gone = number === 0 ? this.#primaryGone : lane?.gone;
        if (gone !== undefined) this.#end(gone);
        return;
      }
      this.#heldBytes -= frameByteLength(frame);
      this.#turn += 1;
      this.#inbox.deliver(frame);
    }
  }

  /** The bond is lost as a whole: everything is closed, and the session told once. */
  #end(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    this.#setupTimer?.cancel();
    // After the session's own close the lanes keep their grace to deliver its last frames.
    if (!this.#closing) {
      for (const lane of this.#lanes.values()) lane.close(0);
      this.#primary.close(0);
    }
    for (const closed of this.#closedListeners) closed(reason);
  }
}
