import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
import {
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../../../src-shared/protocol';
import { withMaxMessageSize } from '../../../src-shared/session/max-message-size';
import {
  dataChannelMid,
  encodeSignal,
  type NegotiationSignal,
} from '../../../src-shared/session/negotiation-signal';
import { DATA_CHANNEL_LABEL } from '../../../src-shared/session/ports';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import { errorMessage } from '../../../src-shared/format/error-message';

/** libdatachannel's states after which a connection carries nothing more. */
const GONE_STATES: ReadonlySet<string> = new Set(['disconnected', 'failed', 'closed']);

type Description = Extract<NegotiationSignal, { sdp: string }>;
type CandidateInit = Extract<NegotiationSignal, { type: 'candidate' }>['candidate'];
type Message = string | Buffer;

/** What one direction of the bridge handed on, in the framing it arrived in. */
export interface Carried {
  textFrames: number;
  binaryFrames: number;
  binaryBytes: number;
}

/** Where the middle sends what its two connections say: each real peer hears only the middle. */
export interface InterceptionOutlets {
  toSender(payload: SignalPayload): void;
  toReceiver(payload: SignalPayload): void;
}

/**
 * One direction of the bridge: every message out of one channel goes into the other in order and
 * in its own framing. node-datachannel cannot pause reading, so what the target's send buffer
 * cannot take yet waits here, and moves on at the buffer-low callback (the spec's 8 and 4 MiB
 * marks). An end closes the target only once all of this has been sent and drained.
 */
class Lane {
  readonly carried: Carried = { textFrames: 0, binaryFrames: 0, binaryBytes: 0 };
  readonly #queue: Message[] = [];
  #into: DataChannel | undefined;
  #ending = false;
  #closed = false;

  constructor(private readonly onClose: () => void) {}

  /** The target channel opened: what waited goes now. */
  open(into: DataChannel): void {
    this.#into = into;
    this.#threshold(this.#ending ? 0 : SEND_BUFFER_LOW_WATER_BYTES);
    this.pump();
  }

  carry(message: Message): void {
    this.#queue.push(message);
    this.pump();
  }

  /** The source closed: the target follows once everything before the close is through. */
  end(): void {
    this.#ending = true;
    // Waiting for the last bytes to leave the send buffer: the buffer-low callback at 0.
    this.#threshold(0);
    this.pump();
  }

  #threshold(bytes: number): void {
    try {
      this.#into?.setBufferedAmountLowThreshold(bytes);
    } catch {
      // A closed channel has no buffer to watch.
    }
  }

  pump(): void {
    const into = this.#into;
    if (into === undefined || this.#closed || !into.isOpen()) return;
    while (this.#queue.length > 0 && into.bufferedAmount() < SEND_BUFFER_HIGH_WATER_BYTES) {
      const message = this.#queue.shift() as Message;
      if (typeof message === 'string') {
        into.sendMessage(message);
        this.carried.textFrames += 1;
      } else {
        into.sendMessageBinary(message);
        this.carried.binaryFrames += 1;
        this.carried.binaryBytes += message.byteLength;
      }
    }
    if (this.#ending && this.#queue.length === 0 && into.bufferedAmount() === 0) {
      this.#closed = true;
      this.onClose();
      into.close();
    }
  }
}

/**
 * The middle's own PeerConnection toward one real peer, with its own certificate. Remote
 * candidates wait for the remote description (node-datachannel throws on them before it); as an
 * offerer it also holds its own candidates until the answer is in, as Ferry's PeerLink does,
 * because libdatachannel starts DTLS before it has the remote fingerprint when the answerer's
 * checks arrive first (https://github.com/paullouisageneau/libdatachannel/pull/1612).
 */
class MiddleEnd {
  readonly pc: PeerConnection;
  /** Messages on their way to this end's real peer. */
  readonly inbound: Lane;
  channel: DataChannel | undefined;
  /** Channels the real peer opened beyond the first: never used, referenced until they close. */
  readonly extraChannels: DataChannel[] = [];
  /** The real peer's description as it sent it. */
  remoteSdp: string | undefined;
  /** The middle's description as passed on to the real peer. */
  passedSdp: string | undefined;
  /**
   * Noted when the channel opens: the real peer's certificate as DTLS checked it, the middle's
   * own from its local description, and the channel's label.
   */
  readonly opened: { presented?: string; own?: string[]; label?: string } = {};
  /** The middle asked this channel to close: its close callback is no news from the peer. */
  closeRequested = false;
  /** The real peer has closed; this end is let go once its last frames have moved on. */
  done = false;
  framesIn = 0;
  readonly #pending: CandidateInit[] = [];
  #heldLocal: NegotiationSignal[] | undefined;

  constructor(
    name: string,
    role: 'offerer' | 'answerer',
    private readonly passOn: (signal: NegotiationSignal) => void,
  ) {
    this.pc = new nodeDataChannel.PeerConnection(name, { iceServers: [] });
    this.inbound = new Lane(() => (this.closeRequested = true));
    if (role === 'offerer') this.#heldLocal = [];
  }

  /** A description or candidate of the middle's own, on its way to the real peer. */
  local(signal: NegotiationSignal): void {
    if (signal.type === 'candidate' && this.#heldLocal !== undefined) {
      this.#heldLocal.push(signal);
      return;
    }
    // Ferry's answers advertise the spec's max-message-size; the middle's must look the same.
    const passed =
      signal.type === 'answer' ? { ...signal, sdp: withMaxMessageSize(signal.sdp) } : signal;
    if (passed.type !== 'candidate') this.passedSdp = passed.sdp;
    this.passOn(passed);
  }

  setRemote(sdp: string, type: 'offer' | 'answer'): void {
    this.remoteSdp = sdp;
    this.pc.setRemoteDescription(sdp, type);
    const held = this.#heldLocal ?? [];
    this.#heldLocal = undefined;
    for (const signal of held) this.passOn(signal);
    for (const candidate of this.#pending.splice(0)) this.addRemoteCandidate(candidate);
  }

  addRemoteCandidate(candidate: CandidateInit): void {
    const sdp = this.remoteSdp;
    if (sdp === undefined) {
      this.#pending.push(candidate);
      return;
    }
    const mid = candidate.sdpMid ?? dataChannelMid(sdp, candidate.sdpMLineIndex ?? 0) ?? '0';
    try {
      this.pc.addRemoteCandidate(candidate.candidate, mid);
    } catch {
      // One unusable candidate costs its route, as it does for a real peer.
    }
  }

  /**
   * DTLS is up and the channel open: what the test reads later is noted now, while the native
   * objects still answer (they are let go as soon as the real peers close).
   */
  noteOpen(channel: DataChannel): void {
    try {
      const { algorithm, value } = this.pc.remoteFingerprint();
      if (value !== '') this.opened.presented = `${algorithm.toLowerCase()} ${value.toUpperCase()}`;
      this.opened.own = fingerprintsIn(this.pc.localDescription()?.sdp ?? '');
      this.opened.label = channel.getLabel();
    } catch {
      // What could not be read stays undefined, and the test says so.
    }
  }

  close(): void {
    for (const channel of [this.channel, ...this.extraChannels]) {
      try {
        channel?.close();
      } catch {
        // Already closed.
      }
    }
    try {
      this.pc.close();
    } catch {
      // Nothing left to release.
    }
  }
}

/** The SDPs each real peer sent, and those the middle passed on to each in the other's name. */
export interface InterceptedSdp {
  /** The sender's offer: its own certificate's fingerprint. */
  fromSender: string | undefined;
  /** The answer the sender got as the receiver's: A's. */
  toSender: string | undefined;
  /** The offer the receiver got as the sender's: B's. */
  toReceiver: string | undefined;
  /** The receiver's answer: its own certificate's fingerprint. */
  fromReceiver: string | undefined;
}

/** One real peer's view of its DTLS session, as the SDPs it sent and received show it. */
export interface FingerprintView {
  /** Its own certificate, as its own description announced it. */
  own: string[];
  /** What it was told the other end's certificate is, and so checked the handshake against. */
  given: string[];
}

/**
 * One offer of the real sender, terminated by the middle: its PeerConnection A answers the
 * sender in the receiver's place, its PeerConnection B offers to the receiver in the sender's
 * place, and the two data channels are piped together. Each real peer's DTLS session therefore
 * ends at the middle, with the middle's certificate where the other peer's should be.
 */
export class Interception {
  /** The sender's attempt number (docs/protocol.md, "Setup retry"), echoed on both sides. */
  readonly attempt: number | undefined;
  /** Everything that threw inside a native callback; a clean run leaves it empty. */
  readonly problems: string[] = [];
  /** Settles once both real peers have closed and the middle has let go of its connections. */
  readonly finished: Promise<void>;
  /** A: answers the sender. */
  readonly #towardSender: MiddleEnd;
  /** B: offers to the receiver. */
  readonly #towardReceiver: MiddleEnd;
  #finish!: () => void;
  #closed = false;

  /**
   * `listGenuineFirst`: the offer B passes on lists the sender's own certificate first and the
   * middle's second, the disguise Firefox fell to (it completes DTLS with any listed line, and a
   * page read the first).
   */
  constructor(offer: Description, outlets: InterceptionOutlets, listGenuineFirst = false) {
    this.attempt = offer.attempt;
    this.finished = new Promise((resolve) => (this.#finish = resolve));
    const tagged = (signal: NegotiationSignal): SignalPayload =>
      encodeSignal(this.attempt === undefined ? signal : { ...signal, attempt: this.attempt });
    const disguised = (signal: NegotiationSignal): NegotiationSignal =>
      listGenuineFirst && signal.type === 'offer'
        ? { ...signal, sdp: withLineBefore(signal.sdp, fingerprintLineOf(offer.sdp)) }
        : signal;
    this.#towardSender = new MiddleEnd('ferry-mitm-toward-sender', 'answerer', (signal) =>
      outlets.toSender(tagged(signal)),
    );
    this.#towardReceiver = new MiddleEnd('ferry-mitm-toward-receiver', 'offerer', (signal) =>
      outlets.toReceiver(tagged(disguised(signal))),
    );
    this.#wire(this.#towardSender, this.#towardReceiver);
    this.#wire(this.#towardReceiver, this.#towardSender);
    this.#guard(() => {
      const b = this.#towardReceiver;
      // Creating the channel starts B's offer, with the label and defaults of Ferry's own.
      this.#adopt(b, b.pc.createDataChannel(DATA_CHANNEL_LABEL), this.#towardSender);
      // node-datachannel answers by itself once it has the offer.
      this.#towardSender.setRemote(offer.sdp, 'offer');
    })();
  }

  get sdp(): InterceptedSdp {
    return {
      fromSender: this.#towardSender.remoteSdp,
      toSender: this.#towardSender.passedSdp,
      toReceiver: this.#towardReceiver.passedSdp,
      fromReceiver: this.#towardReceiver.remoteSdp,
    };
  }

  /** What each real peer saw: through the middle, the two never name the same pair. */
  get views(): { sender: FingerprintView; receiver: FingerprintView } {
    const { fromSender, toSender, toReceiver, fromReceiver } = this.sdp;
    return {
      sender: { own: fingerprintsIn(fromSender ?? ''), given: fingerprintsIn(toSender ?? '') },
      receiver: {
        own: fingerprintsIn(fromReceiver ?? ''),
        given: fingerprintsIn(toReceiver ?? ''),
      },
    };
  }

  /** The fingerprints of the middle's own certificates, read from its local descriptions. */
  get middleFingerprints(): { towardSender: string[]; towardReceiver: string[] } {
    return {
      towardSender: this.#towardSender.opened.own ?? [],
      towardReceiver: this.#towardReceiver.opened.own ?? [],
    };
  }

  /** The certificates the real peers presented to the middle, as its DTLS sessions checked them. */
  get presented(): { sender: string | undefined; receiver: string | undefined } {
    return {
      sender: this.#towardSender.opened.presented,
      receiver: this.#towardReceiver.opened.presented,
    };
  }

  /** What the bridge carried each way. */
  get carried(): { toReceiver: Carried; toSender: Carried } {
    return {
      toReceiver: this.#towardReceiver.inbound.carried,
      toSender: this.#towardSender.inbound.carried,
    };
  }

  /** The label of the channel the sender opened, and of the one the middle opened to the receiver. */
  get channelLabels(): { fromSender: string | undefined; toReceiver: string | undefined } {
    return {
      fromSender: this.#towardSender.opened.label,
      toReceiver: this.#towardReceiver.opened.label,
    };
  }

  receiverAnswered(sdp: string): void {
    this.#guard(() => this.#towardReceiver.setRemote(sdp, 'answer'))();
  }

  senderCandidate(candidate: CandidateInit): void {
    this.#guard(() => this.#towardSender.addRemoteCandidate(candidate))();
  }

  receiverCandidate(candidate: CandidateInit): void {
    this.#guard(() => this.#towardReceiver.addRemoteCandidate(candidate))();
  }

  /** Lets go of both connections now, whatever they are doing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#towardSender.close();
    this.#towardReceiver.close();
    this.#finish();
  }

  #wire(end: MiddleEnd, other: MiddleEnd): void {
    const { pc } = end;
    pc.onLocalDescription(
      this.#guard((sdp, type) => {
        if (type === 'offer' || type === 'answer') end.local({ type, sdp });
      }),
    );
    pc.onLocalCandidate(
      this.#guard((candidate, mid) => {
        // node-datachannel writes the SDP attribute form; Ferry relays it without `a=`.
        const bare = candidate.startsWith('a=') ? candidate.slice(2) : candidate;
        end.local({ type: 'candidate', candidate: { candidate: bare, sdpMid: mid } });
      }),
    );
    pc.onStateChange(
      this.#guard((state) => {
        if (GONE_STATES.has(state)) this.#peerDone(end, other);
      }),
    );
    pc.onDataChannel(this.#guard((channel) => this.#adopt(end, channel, other)));
  }

  /** Keeps the channel referenced, and pipes what it delivers into the other end's lane. */
  #adopt(end: MiddleEnd, channel: DataChannel, other: MiddleEnd): void {
    if (end.channel !== undefined) {
      // Ferry opens one channel per transfer; a second is referenced until closed, never used.
      end.extraChannels.push(channel);
      channel.onClosed(() => undefined);
      channel.close();
      return;
    }
    end.channel = channel;
    const opened = (): void => {
      end.noteOpen(channel);
      end.inbound.open(channel);
    };
    channel.onMessage(
      this.#guard((message) => {
        end.framesIn += 1;
        other.inbound.carry(
          typeof message === 'string' || Buffer.isBuffer(message) ? message : Buffer.from(message),
        );
      }),
    );
    channel.onOpen(this.#guard(opened));
    channel.onBufferedAmountLow(this.#guard(() => end.inbound.pump()));
    channel.onError(this.#guard(() => this.#peerDone(end, other)));
    channel.onClosed(
      this.#guard(() => {
        if (!end.closeRequested) this.#peerDone(end, other);
      }),
    );
    // A channel the peer opened may be open by the time it is handed over.
    if (channel.isOpen()) opened();
  }

  /**
   * The real peer behind `end` closed: the other real peer is told the same way, by a channel
   * close, once every frame sent before the close has gone through. node-datachannel delivers
   * messages and closes through separate queues, so a close counts only once a whole event-loop
   * turn passed without a frame (as in PeerLink).
   */
  #peerDone(end: MiddleEnd, other: MiddleEnd): void {
    if (end.done) return;
    end.done = true;
    const settle = (seen: number): void => {
      setImmediate(() =>
        setImmediate(
          this.#guard(() => {
            if (end.framesIn !== seen) {
              settle(end.framesIn);
              return;
            }
            other.inbound.end();
            end.close();
            if (other.done) this.close();
          }),
        ),
      );
    };
    settle(end.framesIn);
  }

  /** Wraps a native callback (or a step that may throw): nothing may escape into native code. */
  #guard<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        callback(...args);
      } catch (error) {
        this.problems.push(errorMessage(error));
      }
    };
  }
}

/** The distinct `a=fingerprint` values of an SDP, as `<algorithm> <HEX:HEX:…>`. */
export function fingerprintsIn(sdp: string): string[] {
  const found = new Set<string>();
  for (const line of sdp.split(/\r?\n/)) {
    const match = /^a=fingerprint:(\S+) (\S+)$/.exec(line.trim());
    if (match) found.add(`${match[1]?.toLowerCase()} ${match[2]?.toUpperCase()}`);
  }
  return [...found];
}

/** The first `a=fingerprint` line of an SDP, as it stands. */
function fingerprintLineOf(sdp: string): string {
  const line = sdp.split(/\r?\n/).find((each) => each.startsWith('a=fingerprint:'));
  if (line === undefined) throw new Error('the sender offered no a=fingerprint line');
  return line;
}

/** `sdp` with `line` inserted just before its first `a=fingerprint` line, at the same level. */
function withLineBefore(sdp: string, line: string): string {
  const lines = sdp.split('\r\n');
  const at = lines.findIndex((each) => each.startsWith('a=fingerprint:'));
  if (at < 0) throw new Error('the middle offered no a=fingerprint line');
  lines.splice(at, 0, line);
  return lines.join('\r\n');
}
