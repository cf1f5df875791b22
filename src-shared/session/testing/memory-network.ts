import { frameByteLength, type Frame } from '../../protocol/frame';
import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../../protocol/limits';
import type { PeerFingerprints } from '../../verify/sas';
import { FrameInbox } from '../frame-inbox';
import type { NegotiationSignal } from '../negotiation-signal';
import type {
  ChannelHandlers,
  ChannelPort,
  Clock,
  ClockTimer,
  PeerConnectionFactory,
  PeerConnectionHandlers,
  PeerConnectionPort,
} from '../ports';

/** How one connection's path behaves, the same both ways. */
export interface PathConditions {
  /** One-way delay of every message, in milliseconds. */
  delayMs?: number;
  /** What the path carries per millisecond; messages wait in the send buffer meanwhile. */
  bytesPerMs?: number;
  /**
   * Every `lossEvery`-th message is lost once and arrives `retransmitMs` late. The channel is
   * ordered and reliable, as SCTP's is: every later message waits behind it.
   */
  lossEvery?: number;
  retransmitMs?: number;
  /**
   * A message larger than this is dropped by the path for good (a path that drops large packets),
   * and so is everything after it on that direction, as an SCTP association stalls on it.
   */
  dropAboveBytes?: number;
  /** From the moment both ends have every description and candidate until the channel opens. */
  openAfterMs?: number;
  /** The channel never opens (a lane's ICE that never completes). */
  neverOpens?: boolean;
  relayed?: boolean;
}

/** An RFC 8841 peer that names no limit may be sent 64 KiB. */
const DEFAULT_MAX_MESSAGE_BYTES = 65_536;
const UFRAG = /^a=ice-ufrag:(\S+)$/m;
const MAX_MESSAGE_SIZE = /^a=max-message-size:(\d+)$/m;

function sdpOf(id: number, type: 'offer' | 'answer'): string {
  // An offer names its limit; an answer, as some stacks make it, does not: a Ferry peer adds it.
  const limit = type === 'offer' ? [`a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}`] : [];
  const print = id.toString(16).padStart(2, '0').toUpperCase();
  return [
    'v=0',
    `o=- ${id} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    'a=mid:0',
    `a=ice-ufrag:memory${id}`,
    `a=fingerprint:sha-256 ${Array<string>(32).fill(print).join(':')}`,
    `a=setup:${type === 'offer' ? 'actpass' : 'active'}`,
    'a=sctp-port:5000',
    ...limit,
    '',
  ].join('\r\n');
}

const candidateOf = (id: number): string =>
  `candidate:1 1 UDP 2122252543 127.0.0.1 ${10_000 + id} typ host`;

/**
 * One end of an open in-memory data channel. What it sends leaves its buffer at the path's rate
 * and reaches the other end after the path's delay, in order, on the test's clock.
 */
export class MemoryChannel implements ChannelPort {
  readonly released: Promise<void>;
  /** Every frame this end sent. */
  readonly sent: Frame[] = [];
  #peer: MemoryChannel | undefined;
  readonly #clock: Clock;
  readonly #path: PathConditions;
  readonly #maxMessageBytes: number;
  readonly #inbox = new FrameInbox();
  readonly #low = new Set<() => void>();
  readonly #closed = new Set<(reason: string) => void>();
  #buffered = 0;
  #threshold = 0;
  #leaves = 0;
  #arrives = 0;
  #count = 0;
  #stalled = false;
  #closedReason: string | undefined;
  #release!: () => void;

  constructor(clock: Clock, path: PathConditions, maxMessageBytes: number) {
    this.#clock = clock;
    this.#path = path;
    this.#maxMessageBytes = maxMessageBytes;
    this.released = new Promise<void>((resolve) => (this.#release = resolve));
  }

  /** Two open ends of one channel over `path`; each may send the other's `maxMessageBytes`. */
  static pair(
    clock: Clock,
    path: PathConditions,
    maxMessageBytes: [number, number] = [SDP_MAX_MESSAGE_SIZE_BYTES, SDP_MAX_MESSAGE_SIZE_BYTES],
  ): [MemoryChannel, MemoryChannel] {
    const one = new MemoryChannel(clock, path, maxMessageBytes[0]);
    const other = new MemoryChannel(clock, path, maxMessageBytes[1]);
    one.#peer = other;
    other.#peer = one;
    return [one, other];
  }

  send(frame: Frame): boolean {
    if (this.isClosed) return false;
    this.sent.push(frame);
    const bytes = frameByteLength(frame);
    const { delayMs = 1, bytesPerMs, lossEvery, retransmitMs = 0, dropAboveBytes } = this.#path;
    const now = this.#clock.now();
    this.#leaves =
      Math.max(now, this.#leaves) + (bytesPerMs === undefined ? 0 : bytes / bytesPerMs);
    this.#count += 1;
    const lost = lossEvery !== undefined && this.#count % lossEvery === 0;
    this.#arrives = Math.max(this.#leaves + delayMs + (lost ? retransmitMs : 0), this.#arrives);
    if (dropAboveBytes !== undefined && bytes > dropAboveBytes) this.#stalled = true;
    this.#buffered += bytes;
    this.#clock.setTimeout(() => this.#left(bytes), this.#leaves - now);
    const peer = this.#peer;
    if (!this.#stalled && peer !== undefined) {
      this.#clock.setTimeout(() => peer.#arrived(frame), this.#arrives - now);
    }
    return true;
  }

  bufferedAmount(): number {
    return this.#buffered;
  }

  setBufferedAmountLowThreshold(bytes: number): void {
    this.#threshold = bytes;
  }

  maxMessageSize(): number {
    return this.#maxMessageBytes;
  }

  relayed(): Promise<boolean> {
    return Promise.resolve(this.#path.relayed === true);
  }

  roundTripMs(): number {
    return 2 * (this.#path.delayMs ?? 1);
  }

  fingerprints(): PeerFingerprints | undefined {
    return undefined;
  }

  get isClosed(): boolean {
    return this.#closedReason !== undefined;
  }

  listen(handlers: ChannelHandlers): () => void {
    const { frame, bufferedAmountLow, closed } = handlers;
    const unlistenFrames = frame && this.#inbox.listen(frame);
    if (bufferedAmountLow) this.#low.add(bufferedAmountLow);
    if (closed) this.#closed.add(closed);
    return () => {
      unlistenFrames?.();
      if (bufferedAmountLow) this.#low.delete(bufferedAmountLow);
      if (closed) this.#closed.delete(closed);
    };
  }

  /** The other end hears of the close after what was sent before it. */
  close(): void {
    if (this.isClosed) return;
    this.#end('closed by this side');
    const peer = this.#peer;
    if (peer === undefined) return;
    const now = this.#clock.now();
    const at = Math.max(now + (this.#path.delayMs ?? 1), this.#arrives);
    this.#clock.setTimeout(() => peer.#end('the data channel closed'), at - now);
  }

  #left(bytes: number): void {
    const above = this.#buffered > this.#threshold;
    this.#buffered -= bytes;
    if (above && this.#buffered <= this.#threshold) for (const low of [...this.#low]) low();
  }

  #arrived(frame: Frame): void {
    if (!this.isClosed) this.#inbox.deliver(frame);
  }

  #end(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    this.#release();
    for (const closed of [...this.#closed]) closed(reason);
  }
}

/** One connection the network made, as a test inspects it. */
export interface MemoryConnection {
  /** In the order the offerers were made, from 1. */
  readonly index: number;
  readonly probing: boolean;
  readonly path: PathConditions;
  /** The offerer was abandoned before its channel opened, or its channel was closed. */
  readonly closed: boolean;
  readonly open: boolean;
}

/**
 * Peer connections in memory, for the session core's tests without a WebRTC stack: an offerer
 * signals an offer and a candidate, an answerer its answer and a candidate once the offer is set,
 * and the channel opens once each end has set the other's description and then its candidate. As
 * a real stack does, a connection refuses a candidate before the remote description. Each
 * connection's path is what `pathOf` says for its offerer (lanes are made in order).
 */
export class MemoryNetwork {
  readonly connections: MemoryConnection[] = [];
  readonly #clock: Clock;
  readonly #pathOf: (index: number, probing: boolean) => PathConditions;
  readonly #offerers = new Map<string, MemoryPeer>();
  #ids = 0;

  constructor(
    clock: Clock,
    pathOf: (index: number, probing: boolean) => PathConditions = () => ({}),
  ) {
    this.#clock = clock;
    this.#pathOf = pathOf;
  }

  /** A factory of connections; `probing` ones send larger packets (as a LANE_PROBE_MTU lane). */
  peers({ probing = false }: { probing?: boolean } = {}): PeerConnectionFactory {
    return (role) => {
      this.#ids += 1;
      const id = this.#ids;
      if (role === 'answerer') return new MemoryPeer(this.#clock, id, 'answerer', this);
      const index = this.connections.length + 1;
      const path = this.#pathOf(index, probing);
      const peer = new MemoryPeer(this.#clock, id, 'offerer', this, path);
      this.#offerers.set(`memory${id}`, peer);
      this.connections.push({
        index,
        probing,
        path,
        get closed() {
          return peer.closed;
        },
        get open() {
          return peer.open;
        },
      });
      return peer;
    };
  }

  /** The offerer an offer came from. */
  offerer(sdp: string): MemoryPeer | undefined {
    const ufrag = UFRAG.exec(sdp)?.[1];
    return ufrag === undefined ? undefined : this.#offerers.get(ufrag);
  }
}

class MemoryPeer implements PeerConnectionPort {
  readonly #clock: Clock;
  readonly #id: number;
  readonly #role: 'offerer' | 'answerer';
  readonly #network: MemoryNetwork;
  #path: PathConditions;
  readonly #handlers = new Set<PeerConnectionHandlers>();
  #remote: MemoryPeer | undefined;
  #remoteSdp: string | undefined;
  #candidateTaken = false;
  #channel: MemoryChannel | undefined;
  #opening: ClockTimer | undefined;
  #abandoned = false;

  constructor(
    clock: Clock,
    id: number,
    role: 'offerer' | 'answerer',
    network: MemoryNetwork,
    path: PathConditions = {},
  ) {
    this.#clock = clock;
    this.#id = id;
    this.#role = role;
    this.#network = network;
    this.#path = path;
    if (role === 'offerer') void Promise.resolve().then(() => this.#describe('offer'));
  }

  /** Abandoned, or its channel closed. */
  get closed(): boolean {
    return this.#abandoned || this.#channel?.isClosed === true;
  }

  get open(): boolean {
    return this.#channel !== undefined && !this.#channel.isClosed;
  }

  listen(handlers: PeerConnectionHandlers): () => void {
    this.#handlers.add(handlers);
    return () => this.#handlers.delete(handlers);
  }

  setRemoteDescription({ type, sdp }: { type: 'offer' | 'answer'; sdp: string }): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the connection is closed'));
    if (type === 'offer') {
      const offerer = this.#network.offerer(sdp);
      if (this.#role !== 'answerer' || offerer === undefined) {
        return Promise.reject(new Error('not an offer of this network'));
      }
      this.#remote = offerer;
      offerer.#remote = this;
      this.#path = offerer.#path;
    }
    // Applied on a later turn, as a stack's operations chain does: a candidate added meanwhile is
    // refused.
    return Promise.resolve().then(() => {
      this.#remoteSdp = sdp;
      if (type === 'offer') this.#describe('answer');
      this.#whenBothReady();
    });
  }

  addRemoteCandidate(candidate: { candidate: string; sdpMid: string }): Promise<void> {
    const remote = this.#remote;
    if (this.closed || this.#remoteSdp === undefined || remote === undefined) {
      return Promise.reject(new Error('InvalidStateError: no remote description'));
    }
    if (candidate.candidate !== candidateOf(remote.#id) || candidate.sdpMid !== '0') {
      return Promise.reject(new Error(`not the other end's candidate: ${candidate.candidate}`));
    }
    this.#candidateTaken = true;
    this.#whenBothReady();
    return Promise.resolve();
  }

  close(): void {
    this.#abandoned = true;
    this.#opening?.cancel();
    this.#handlers.clear();
  }

  #emit(each: (handlers: PeerConnectionHandlers) => void): void {
    for (const handlers of [...this.#handlers]) each(handlers);
  }

  #describe(type: 'offer' | 'answer'): void {
    if (this.closed) return;
    const signals: NegotiationSignal[] = [
      { type, sdp: sdpOf(this.#id, type) },
      { type: 'candidate', candidate: { candidate: candidateOf(this.#id), sdpMLineIndex: 0 } },
    ];
    for (const signal of signals) this.#emit((handlers) => handlers.signal?.(signal));
  }

  get #ready(): boolean {
    return !this.closed && this.#remoteSdp !== undefined && this.#candidateTaken;
  }

  #whenBothReady(): void {
    const remote = this.#remote;
    if (remote === undefined || !this.#ready || !remote.#ready || this.#opening) return;
    if (this.#path.neverOpens === true) return;
    const opens = (): void => {
      if (!this.#ready || !remote.#ready) return;
      const limit = (sdp: string | undefined): number =>
        Number(MAX_MESSAGE_SIZE.exec(sdp ?? '')?.[1] ?? DEFAULT_MAX_MESSAGE_BYTES);
      const [mine, theirs] = MemoryChannel.pair(this.#clock, this.#path, [
        limit(this.#remoteSdp),
        limit(remote.#remoteSdp),
      ]);
      this.#opened(mine);
      remote.#opened(theirs);
    };
    const timer = this.#clock.setTimeout(
      opens,
      this.#path.openAfterMs ?? 2 * (this.#path.delayMs ?? 1),
    );
    this.#opening = timer;
    remote.#opening = timer;
  }

  #opened(channel: MemoryChannel): void {
    this.#channel = channel;
    this.#emit((handlers) => handlers.connected?.());
    this.#emit((handlers) => handlers.open?.(channel));
  }
}
