import { EventEmitter } from 'node:events';
import { closeWithGrace } from '../../src-shared/session/close-grace';
import { FrameInbox } from '../../src-shared/session/frame-inbox';
import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
import { binaryFrame, textFrame, type Frame } from '../../src-shared/protocol';
import type { NegotiationSignal } from '../../src-shared/session/negotiation-signal';
import {
  fingerprintOfSdp,
  normalizeFingerprint,
  type PeerFingerprints,
} from '../../src-shared/verify/sas';
import {
  DATA_CHANNEL_LABEL,
  type ChannelHandlers,
  type ChannelPort,
  type NegotiatedChannel,
  type PeerConnectionHandlers,
  type PeerConnectionPort,
} from '../../src-shared/session/ports';
import { errorMessage } from '../../src-shared/format/error-message';
import { nodeClock } from './node-clock';

export type PeerLinkRole = 'offerer' | 'answerer';

export interface PeerLinkOptions {
  role: PeerLinkRole;
  /** node-datachannel URL form (see native-ice-servers.ts); empty for host candidates only. */
  iceServers: string[];
  /** Gather and use relay candidates only. */
  relayOnly: boolean;
  /**
   * The installation's certificate and key (devices/native-identity.ts); without it the
   * connection makes a fresh certificate of its own.
   */
  pemFile?: string;
  /** Both ends create this channel (a lane's); without it, the specification's in-band one. */
  negotiated?: NegotiatedChannel;
  /** The path MTU SCTP sizes its packets for; libdatachannel's 1280 when not given. */
  mtu?: number;
}

/** Which kind of route the selected candidate pair uses. */
export interface Route {
  local: string;
  remote: string;
  /** Either end is a TURN relay. */
  relayed: boolean;
}

export interface PeerLinkEvents {
  /** A description or candidate to hand to the other peer through signaling. */
  signal: [signal: NegotiationSignal];
  /** ICE and DTLS are up; the data channel should follow. */
  connected: [];
  open: [];
  'buffered-amount-low': [];
  /** The channel or the connection ended, for whatever reason; emitted once. */
  closed: [reason: string];
}

/** libdatachannel's states after which the connection carries nothing more. */
const GONE_STATES: ReadonlySet<string> = new Set(['disconnected', 'failed', 'closed']);

/** libdatachannel's name for a connection, in its own log lines only; never on the wire. */
const PEER_NAME = 'ferry';

/** The channel both ends of a lane create themselves (docs/protocol.md, "Lanes"). */
function negotiatedChannel(pc: PeerConnection, { label, id }: NegotiatedChannel): DataChannel {
  return pc.createDataChannel(label, { negotiated: true, id });
}

const UNKNOWN_ROUTE: Route = { local: 'unknown', remote: 'unknown', relayed: false };

/**
 * One WebRTC connection and its single data channel on node-datachannel: the native adapter of
 * the session core's PeerConnectionPort and, once open, its ChannelPort. It holds references to
 * both for their whole life (an unreferenced native object is collected mid-transfer), catches
 * every exception inside native callbacks (one escaping aborts the process), and registers the
 * close callbacks that let the native handles go, so the process can end.
 */
export class PeerLink
  extends EventEmitter<PeerLinkEvents>
  implements PeerConnectionPort, ChannelPort
{
  readonly #pc: PeerConnection;
  #channel: DataChannel | undefined;
  /** The channel both ends create, when this connection is a lane. */
  readonly #negotiated: NegotiatedChannel | undefined;
  /** Channels the peer opened beyond the first: refused, but referenced until they close. */
  readonly #refused: DataChannel[] = [];
  /** The offerer's own candidates, held back until the answer is in (see the constructor). */
  #heldCandidates: NegotiationSignal[] | undefined;
  #closedReason: string | undefined;
  #closing = false;
  #closeRequested = false;
  /** The peer closed the channel before this side asked to: everything it sent has arrived. */
  #peerClosedChannel = false;
  #connectionGone = false;
  #whenConnectionGone: (() => void) | undefined;
  #released = false;
  /** Frames that arrive before the session core listens are kept for it. */
  readonly #frames = new FrameInbox();
  #release!: () => void;
  /** Settles once the native connection is closed and its callbacks are let go. */
  readonly released = new Promise<void>((resolve) => (this.#release = resolve));
  /** Frames delivered so far; tells whether delivery is still under way when a close arrives. */
  #framesIn = 0;

  constructor(options: PeerLinkOptions) {
    super();
    this.#pc = new nodeDataChannel.PeerConnection(PEER_NAME, {
      iceServers: options.iceServers,
      iceTransportPolicy: options.relayOnly ? 'relay' : 'all',
      ...(options.mtu === undefined ? {} : { mtu: options.mtu }),
      ...(options.pemFile === undefined
        ? {}
        : { certificatePemFile: options.pemFile, keyPemFile: options.pemFile }),
    });
    const pc = this.#pc;
    // libdatachannel 0.24 starts DTLS as soon as ICE connects, before it has committed the
    // remote fingerprint, and then fails the handshake ("certificate verify failed"). That
    // happens when the answerer's checks reach the offerer before its answer does, so the offerer
    // tells nobody where it is until the answer is applied.
    // https://github.com/paullouisageneau/libdatachannel/pull/1612
    if (options.role === 'offerer') this.#heldCandidates = [];
    pc.onStateChange(this.#guard((state) => this.#onStateChange(state)));
    pc.onLocalDescription(
      this.#guard((sdp, type) => {
        if (type === 'offer' || type === 'answer') this.emit('signal', { type, sdp });
      }),
    );
    pc.onLocalCandidate(
      this.#guard((candidate, mid) => {
        // node-datachannel writes the SDP attribute form; browsers expect it without `a=`.
        const bare = candidate.startsWith('a=') ? candidate.slice(2) : candidate;
        const signal: NegotiationSignal = {
          type: 'candidate',
          candidate: { candidate: bare, sdpMid: mid },
        };
        if (this.#heldCandidates !== undefined) this.#heldCandidates.push(signal);
        else this.emit('signal', signal);
      }),
    );
    this.#negotiated = options.negotiated;
    if (options.role === 'answerer') {
      pc.onDataChannel(this.#guard((channel) => this.#adopt(channel, true)));
    } else {
      // Creating the channel starts negotiation: the offer arrives through onLocalDescription.
      const negotiated = options.negotiated;
      this.#adopt(
        negotiated === undefined
          ? pc.createDataChannel(DATA_CHANNEL_LABEL)
          : negotiatedChannel(pc, negotiated),
        false,
      );
    }
  }

  get isClosed(): boolean {
    return this.#closedReason !== undefined;
  }

  listen(handlers: PeerConnectionHandlers & ChannelHandlers): () => void {
    const subscribed: [keyof PeerLinkEvents, (...args: never[]) => void][] = [];
    const on = <K extends keyof PeerLinkEvents>(
      event: K,
      listener: ((...args: PeerLinkEvents[K]) => void) | undefined,
    ): void => {
      if (listener === undefined) return;
      this.on(event, listener as never);
      subscribed.push([event, listener as never]);
    };
    on('signal', handlers.signal);
    on('connected', handlers.connected);
    on('open', handlers.open && (() => handlers.open?.(this)));
    const unlistenFrames = handlers.frame && this.#frames.listen(handlers.frame);
    on('buffered-amount-low', handlers.bufferedAmountLow);
    on('closed', handlers.closed);
    on('closed', handlers.failed);
    return () => {
      unlistenFrames?.();
      for (const [event, listener] of subscribed) this.off(event, listener as never);
    };
  }

  /** Sets the other peer's description (node-datachannel then answers an offer by itself). */
  async setRemoteDescription(description: {
    type: 'offer' | 'answer';
    sdp: string;
  }): Promise<void> {
    if (this.isClosed) throw new Error('the connection is closed');
    this.#pc.setRemoteDescription(description.sdp, description.type);
    // An answerer's own channel, only now: node-datachannel answers the offer inside
    // setRemoteDescription, and a channel created before it would have made an offer of its own.
    const negotiated = this.#negotiated;
    if (this.#channel === undefined && negotiated !== undefined) {
      this.#adopt(negotiatedChannel(this.#pc, negotiated), false);
    }
    const held = this.#heldCandidates ?? [];
    this.#heldCandidates = undefined;
    for (const local of held) this.emit('signal', local);
  }

  async addRemoteCandidate(candidate: { candidate: string; sdpMid: string }): Promise<void> {
    if (this.isClosed) return;
    this.#pc.addRemoteCandidate(candidate.candidate, candidate.sdpMid);
  }

  /** Whether the selected route runs through a TURN relay. */
  async relayed(): Promise<boolean> {
    return this.route().relayed;
  }

  /** SCTP's smoothed round trip; libdatachannel reads 0 before it has timed anything. */
  roundTripMs(): number | undefined {
    try {
      const rtt = this.#pc.rtt();
      return rtt > 0 ? rtt : undefined;
    } catch {
      return undefined;
    }
  }

  /** The negotiated largest message, or 0 when the connection does not know it. */
  maxMessageSize(): number {
    try {
      return this.#pc.maxMessageSize();
    } catch {
      return 0;
    }
  }

  /**
   * This side's certificate as its own description announces it, and the remote one as DTLS
   * verified it; undefined when node-datachannel cannot tell (before DTLS, after the close).
   */
  fingerprints(): PeerFingerprints | undefined {
    try {
      const description = this.#pc.localDescription();
      const local = description === null ? undefined : fingerprintOfSdp(description.sdp);
      const { algorithm, value } = this.#pc.remoteFingerprint();
      const remote = normalizeFingerprint(algorithm, value);
      return local === undefined || remote === undefined ? undefined : { local, remote };
    } catch {
      return undefined;
    }
  }

  /** The selected candidate pair's kinds: `host`, `srflx`, `prflx` or `relay` at each end. */
  route(): Route {
    try {
      const pair = this.#pc.getSelectedCandidatePair();
      if (pair === null) return UNKNOWN_ROUTE;
      const local = pair.local.type;
      const remote = pair.remote.type;
      return { local, remote, relayed: local === 'relay' || remote === 'relay' };
    } catch {
      return UNKNOWN_ROUTE;
    }
  }

  /**
   * Sends one frame, or queues it behind the send buffer; false only when the channel is gone.
   * (libdatachannel's own boolean says whether the frame left at once, which is no failure.)
   */
  send(frame: Frame): boolean {
    const channel = this.#channel;
    if (channel === undefined || !channel.isOpen()) return false;
    try {
      if (frame.kind === 'text') channel.sendMessage(frame.text);
      else channel.sendMessageBinary(frame.bytes);
      return true;
    } catch (error) {
      // Most often the peer has just closed the channel: what it said before (an abort's
      // reason) may still be on its way to JavaScript, and must be read first.
      this.#endAfterFrames(`sending failed: ${errorMessage(error)}`);
      return false;
    }
  }

  bufferedAmount(): number {
    try {
      return this.#channel?.bufferedAmount() ?? 0;
    } catch {
      return 0;
    }
  }

  /** `buffered-amount-low` fires when the send buffer falls to this level or below. */
  setBufferedAmountLowThreshold(bytes: number): void {
    try {
      this.#channel?.setBufferedAmountLowThreshold(bytes);
    } catch {
      // A closed channel has no buffer to watch; `closed` tells the owner.
    }
  }

  /**
   * Closes the channel and then the connection. After the peer closed the channel, or when the
   * connection is gone, that happens at once. Otherwise the channel's stream reset travels behind
   * the data still queued in SCTP, and closing the connection now would drop that data; so the
   * connection stays until the peer, having read everything, closes its side, or `graceMs` passes.
   */
  close(graceMs = 0): void {
    if (this.#closeRequested) return;
    this.#closeRequested = true;
    const channel = this.#channel;
    if (channel === undefined || this.#peerClosedChannel || this.#connectionGone) {
      this.#letGo('closed by this device');
      return;
    }
    this.#closeQuietly(channel);
    this.#whenConnectionGone = closeWithGrace(nodeClock, graceMs, () =>
      this.#letGo('closed by this device'),
    );
  }

  #adopt(channel: DataChannel, incoming: boolean): void {
    if (this.#channel !== undefined) {
      // One channel per transfer: a second one from the peer is not ours to use. Its close
      // callback must exist for node-datachannel to let it go.
      if (incoming) {
        this.#refused.push(channel);
        channel.onClosed(() => undefined);
        this.#closeQuietly(channel);
      }
      return;
    }
    this.#channel = channel;
    channel.onMessage(
      this.#guard((message) => {
        this.#framesIn += 1;
        this.#frames.deliver(
          typeof message === 'string'
            ? textFrame(message)
            : binaryFrame(message instanceof ArrayBuffer ? new Uint8Array(message) : message),
        );
      }),
    );
    channel.onBufferedAmountLow(this.#guard(() => this.emit('buffered-amount-low')));
    channel.onError(
      this.#guard((error) => this.#endAfterFrames(`the data channel failed: ${error}`)),
    );
    channel.onClosed(
      this.#guard(() => {
        if (!this.#closeRequested) this.#peerClosedChannel = true;
        this.#endAfterFrames('the data channel closed');
      }),
    );
    channel.onOpen(this.#guard(() => this.emit('open')));
    if (incoming && channel.isOpen()) this.emit('open');
  }

  #onStateChange(state: string): void {
    if (state === 'connected') {
      this.emit('connected');
      return;
    }
    if (!GONE_STATES.has(state) || this.#connectionGone) return;
    this.#connectionGone = true;
    this.#endAfterFrames(state === 'closed' ? 'the connection closed' : `the connection ${state}`);
    this.#whenConnectionGone?.();
  }

  /**
   * node-datachannel hands each kind of callback to JavaScript through its own queue, so a close
   * can overtake the last frames that arrived before it (the peer's final `end`, say). The close
   * counts only once a whole event-loop turn passed without a frame: by then every frame queued
   * before it has been delivered.
   */
  #endAfterFrames(reason: string): void {
    if (this.#closing) return;
    this.#closing = true;
    const settle = (seen: number): void => {
      setImmediate(() =>
        setImmediate(() => {
          if (this.#framesIn !== seen) settle(this.#framesIn);
          else this.#end(reason);
        }),
      );
    };
    settle(this.#framesIn);
  }

  #end(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    this.emit('closed', reason);
  }

  #letGo(reason: string): void {
    this.#end(reason);
    if (this.#released) return;
    this.#released = true;
    if (this.#channel !== undefined) this.#closeQuietly(this.#channel);
    // Called even when the peer closed first: only this releases node-datachannel's callbacks,
    // which otherwise keep the process alive.
    try {
      this.#pc.close();
    } catch {
      // Nothing left to release.
    }
    this.#release();
  }

  #closeQuietly(channel: DataChannel): void {
    try {
      channel.close();
    } catch {
      // Already closed.
    }
  }

  /** Wraps a native callback: a throw inside one would abort the whole process. */
  #guard<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        callback(...args);
      } catch (error) {
        try {
          this.#end(`internal error: ${errorMessage(error)}`);
        } catch {
          // A listener of `closed` threw too; the native side must still never see it.
        }
      }
    };
  }
}
