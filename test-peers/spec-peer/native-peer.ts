// The spec peer's WebRTC on node-datachannel's own API (not its W3C polyfill).
import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
import { FrameInbox, type SpecChannel } from './channel';
import { failure, violation, type Tripwire } from './failure';
import type { PeerEvents, PeerFactory, PeerPort } from './room-seat';
import { mLineIndexOf, type CandidateInit } from './signal-payload';

/**
 * Every connection and channel in use. node-datachannel objects that no JS value holds are
 * collected mid-transfer, which stalls the channel and later kills the process at close.
 */
const inUse = new Set<PeerConnection | DataChannel>();

export const createNativePeer: PeerFactory = (events, tripwire) => new NativePeer(events, tripwire);

class NativePeer implements PeerPort {
  readonly inbox = new FrameInbox();
  /**
   * node-datachannel's own close event after close() comes before the peer has the bytes (to
   * Chromium the last MiB and the end marker were lost that way), so only the other side ending
   * the connection counts.
   */
  readonly landed: Promise<void>;
  readonly #pc: PeerConnection;
  readonly #events: PeerEvents;
  readonly #tripwire: Tripwire;
  #channel: DataChannel | undefined;
  /**
   * An offerer's own candidates, held until the answer is applied. libdatachannel 0.24 starts
   * DTLS as soon as ICE connects, before it has the remote fingerprint, and then fails the
   * handshake when the answerer's checks arrive first: a fault of the library, not of the wire.
   * https://github.com/paullouisageneau/libdatachannel/pull/1612
   */
  #held: CandidateInit[] | undefined;

  constructor(events: PeerEvents, tripwire: Tripwire) {
    this.#events = events;
    this.#tripwire = tripwire;
    // Host candidates only: the spec peer only ever meets peers on this machine, and a STUN
    // lookup on an offline machine would only add noise.
    const pc = new nodeDataChannel.PeerConnection('spec-peer', { iceServers: [] });
    this.#pc = pc;
    let markLanded!: () => void;
    this.landed = new Promise((resolve) => (markLanded = resolve));
    inUse.add(pc);
    // Every native callback is guarded: an exception escaping one would end the process.
    const guard = tripwire.guard.bind(tripwire);
    pc.onLocalDescription(
      guard((sdp: string, type: string) => {
        if (type !== 'offer' && type !== 'answer')
          throw failure(`local description of type ${type}`);
        events.localDescription(type, sdp);
      }),
    );
    pc.onLocalCandidate(
      guard((candidate: string, mid: string) => {
        const sdp = pc.localDescription()?.sdp ?? '';
        const found: CandidateInit = {
          candidate: candidate.replace(/^a=/, ''),
          sdpMid: mid,
          ...optionalIndex(mLineIndexOf(mid, sdp)),
        };
        if (this.#held !== undefined) this.#held.push(found);
        else events.localCandidate(found);
      }),
    );
    pc.onIceStateChange(guard((state: string) => events.note(`ice ${state}`)));
    pc.onStateChange(
      guard((state: string) => {
        events.note(`connection ${state}`);
        if (state === 'disconnected' || state === 'failed' || state === 'closed') markLanded();
        if (state === 'failed' || state === 'closed') events.connectionFailed(`state ${state}`);
      }),
    );
    pc.onDataChannel(guard((channel: DataChannel) => this.#adopt(channel)));
  }

  offer(): void {
    this.#held = [];
    // With automatic negotiation (the default) creating the channel makes the offer.
    this.#adopt(this.#pc.createDataChannel('spec-peer'));
  }

  acceptRemote(type: 'offer' | 'answer', sdp: string): Promise<void> {
    try {
      this.#pc.setRemoteDescription(sdp, type);
      const held = this.#held ?? [];
      this.#held = undefined;
      for (const candidate of held) this.#events.localCandidate(candidate);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(failure(`setRemoteDescription(${type}) failed: ${String(error)}`));
    }
  }

  addCandidate(candidate: CandidateInit, mid: string): Promise<string | undefined> {
    try {
      this.#pc.addRemoteCandidate(candidate.candidate, mid);
      return Promise.resolve(undefined);
    } catch (error) {
      return Promise.resolve(String(error));
    }
  }

  close(): void {
    try {
      this.#channel?.close();
      this.#pc.close();
    } finally {
      if (this.#channel) inUse.delete(this.#channel);
      inUse.delete(this.#pc);
    }
  }

  #adopt(channel: DataChannel): void {
    if (this.#channel) throw violation('the other peer opened a second data channel');
    this.#channel = channel;
    inUse.add(channel);
    const guard = this.#tripwire.guard.bind(this.#tripwire);
    const inbox = this.inbox;
    channel.onMessage(
      guard((message: string | Buffer | ArrayBuffer) => {
        if (typeof message === 'string') inbox.push({ kind: 'text', text: message });
        else if (message instanceof ArrayBuffer) {
          inbox.push({ kind: 'binary', bytes: new Uint8Array(message) });
        } else {
          inbox.push({
            kind: 'binary',
            bytes: new Uint8Array(message.buffer, message.byteOffset, message.byteLength),
          });
        }
      }),
    );
    channel.onClosed(guard(() => inbox.markClosed()));
    const opened = guard(() => this.#events.channelOpen(new NativeChannel(channel)));
    if (channel.isOpen()) opened();
    else channel.onOpen(opened);
  }
}

class NativeChannel implements SpecChannel {
  readonly #channel: DataChannel;

  constructor(channel: DataChannel) {
    this.#channel = channel;
  }

  sendText(text: string): void {
    this.#send(() => this.#channel.sendMessage(text));
  }

  sendBinary(bytes: Uint8Array): void {
    this.#send(() => this.#channel.sendMessageBinary(bytes));
  }

  bufferedAmount(): number {
    return this.#channel.bufferedAmount();
  }

  maxMessageSize(): number | undefined {
    const size = this.#channel.maxMessageSize();
    return size > 0 ? size : undefined;
  }

  onBufferedAmountLow(threshold: number, listener: () => void): void {
    this.#channel.setBufferedAmountLowThreshold(threshold);
    this.#channel.onBufferedAmountLow(() => {
      try {
        listener();
      } catch {
        // The listener only wakes a waiting loop; nothing it does can fail the transfer here.
      }
    });
  }

  close(): void {
    try {
      this.#channel.close();
    } catch {
      // Already closed by the other side.
    }
  }

  #send(send: () => boolean): void {
    try {
      // false means "queued", not "lost": the buffered amount says how much is waiting.
      send();
    } catch (error) {
      throw failure(`sending on the data channel failed: ${String(error)}`);
    }
  }
}

function optionalIndex(index: number | undefined): { sdpMLineIndex?: number } {
  return index === undefined ? {} : { sdpMLineIndex: index };
}
