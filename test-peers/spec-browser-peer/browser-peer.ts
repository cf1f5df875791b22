// The spec peer's WebRTC in a browser: the page's own RTCPeerConnection. The handful of W3C
// members it uses are declared here, so this file type-checks with or without the DOM library.
import { FrameInbox, type SpecChannel } from '../spec-peer/channel';
import { failure, violation, type Tripwire } from '../spec-peer/failure';
import type { PeerEvents, PeerFactory, PeerPort } from '../spec-peer/room-seat';
import type { CandidateInit } from '../spec-peer/signal-payload';

interface RtcDataChannel {
  readonly readyState: string;
  binaryType: string;
  readonly bufferedAmount: number;
  bufferedAmountLowThreshold: number;
  onopen: (() => void) | null;
  onclose: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onbufferedamountlow: (() => void) | null;
  send(data: string | Uint8Array): void;
  close(): void;
}

interface RtcIceCandidate {
  candidate: string;
  sdpMid: string | null;
  sdpMLineIndex: number | null;
}

interface RtcDescription {
  type: string;
  sdp: string;
}

interface RtcPeerConnection {
  readonly localDescription: RtcDescription | null;
  readonly sctp: { maxMessageSize: number } | null;
  readonly connectionState: string;
  onicecandidate: ((event: { candidate: RtcIceCandidate | null }) => void) | null;
  ondatachannel: ((event: { channel: RtcDataChannel }) => void) | null;
  onconnectionstatechange: (() => void) | null;
  createDataChannel(label: string): RtcDataChannel;
  setLocalDescription(): Promise<void>;
  setRemoteDescription(description: { type: 'offer' | 'answer'; sdp: string }): Promise<void>;
  addIceCandidate(candidate: CandidateInit): Promise<void>;
  close(): void;
}

type RtcPeerConnectionConstructor = new (configuration: {
  iceServers: never[];
}) => RtcPeerConnection;

export const createBrowserPeer: PeerFactory = (events, tripwire) =>
  new BrowserPeer(events, tripwire);

class BrowserPeer implements PeerPort {
  readonly inbox = new FrameInbox();
  /**
   * A browser fires the channel's close only once the peer answered the closing reset, which it
   * does after every earlier byte arrived; a remote stack ending the connection shows only late
   * (consent checks), so the close event is what counts, or the connection ending.
   */
  readonly landed: Promise<void>;
  readonly #markLanded: () => void;
  readonly #pc: RtcPeerConnection;
  readonly #events: PeerEvents;
  readonly #tripwire: Tripwire;
  #channel: RtcDataChannel | undefined;

  constructor(events: PeerEvents, tripwire: Tripwire) {
    this.#events = events;
    this.#tripwire = tripwire;
    const Constructor = (
      globalThis as unknown as { RTCPeerConnection: RtcPeerConnectionConstructor }
    ).RTCPeerConnection;
    // Host candidates only: the spec peer only ever meets peers on this machine.
    const pc = new Constructor({ iceServers: [] });
    this.#pc = pc;
    let markLanded!: () => void;
    this.landed = new Promise((resolve) => (markLanded = resolve));
    this.#markLanded = markLanded;
    const guard = tripwire.guard.bind(tripwire);
    pc.onicecandidate = guard(({ candidate }) => {
      if (!candidate || candidate.candidate === '') return;
      events.localCandidate({
        candidate: candidate.candidate,
        ...(candidate.sdpMid === null ? {} : { sdpMid: candidate.sdpMid }),
        ...(candidate.sdpMLineIndex === null ? {} : { sdpMLineIndex: candidate.sdpMLineIndex }),
      });
    });
    pc.onconnectionstatechange = guard(() => {
      const state = pc.connectionState;
      events.note(`connection ${state}`);
      if (state === 'disconnected' || state === 'failed' || state === 'closed') markLanded();
      if (state === 'failed' || state === 'closed') events.connectionFailed(`state ${state}`);
    });
    pc.ondatachannel = guard(({ channel }) => this.#adopt(channel));
  }

  offer(): void {
    this.#adopt(this.#pc.createDataChannel('spec-peer'));
    // setLocalDescription() without an argument makes the offer: the fewest steps before it goes.
    this.#pc.setLocalDescription().then(
      () => this.#describe('offer'),
      (error: unknown) => this.#tripwire.trip(failure(`making the offer failed: ${String(error)}`)),
    );
  }

  async acceptRemote(type: 'offer' | 'answer', sdp: string): Promise<void> {
    try {
      await this.#pc.setRemoteDescription({ type, sdp });
      if (type === 'offer') {
        await this.#pc.setLocalDescription();
        this.#describe('answer');
      }
    } catch (error) {
      throw failure(`taking the ${type} failed: ${String(error)}`);
    }
  }

  async addCandidate(candidate: CandidateInit, mid: string): Promise<string | undefined> {
    try {
      await this.#pc.addIceCandidate({ ...candidate, sdpMid: mid });
      return undefined;
    } catch (error) {
      return String(error);
    }
  }

  close(): void {
    this.#channel?.close();
    this.#pc.close();
  }

  #describe(type: 'offer' | 'answer'): void {
    const description = this.#pc.localDescription;
    if (!description || description.type !== type) throw failure(`no local ${type} to send`);
    this.#events.localDescription(type, description.sdp);
  }

  #adopt(channel: RtcDataChannel): void {
    if (this.#channel) throw violation('the other peer opened a second data channel');
    this.#channel = channel;
    channel.binaryType = 'arraybuffer';
    const guard = this.#tripwire.guard.bind(this.#tripwire);
    const inbox = this.inbox;
    channel.onmessage = guard(({ data }) => {
      if (typeof data === 'string') inbox.push({ kind: 'text', text: data });
      else if (data instanceof ArrayBuffer)
        inbox.push({ kind: 'binary', bytes: new Uint8Array(data) });
      else throw failure('a data channel message that is neither text nor an ArrayBuffer');
    });
    channel.onclose = guard(() => {
      inbox.markClosed();
      this.#markLanded();
    });
    const opened = guard(() => this.#events.channelOpen(new BrowserChannel(channel, this.#pc)));
    if (channel.readyState === 'open') opened();
    else channel.onopen = opened;
  }
}

class BrowserChannel implements SpecChannel {
  readonly #channel: RtcDataChannel;
  readonly #pc: RtcPeerConnection;

  constructor(channel: RtcDataChannel, pc: RtcPeerConnection) {
    this.#channel = channel;
    this.#pc = pc;
  }

  sendText(text: string): void {
    this.#send(text);
  }

  sendBinary(bytes: Uint8Array): void {
    this.#send(bytes);
  }

  bufferedAmount(): number {
    return this.#channel.bufferedAmount;
  }

  maxMessageSize(): number | undefined {
    const size = this.#pc.sctp?.maxMessageSize;
    return size !== undefined && size > 0 ? size : undefined;
  }

  onBufferedAmountLow(threshold: number, listener: () => void): void {
    this.#channel.bufferedAmountLowThreshold = threshold;
    this.#channel.onbufferedamountlow = () => {
      try {
        listener();
      } catch {
        // The listener only wakes a waiting loop; nothing it does can fail the transfer here.
      }
    };
  }

  close(): void {
    this.#channel.close();
  }

  #send(data: string | Uint8Array): void {
    try {
      this.#channel.send(data);
    } catch (error) {
      throw failure(`sending on the data channel failed: ${String(error)}`);
    }
  }
}
