// Signaling spec, "Signaling sequence" and "Room membership", played strictly: the sender
// offers in the same turn as user-connected arrives, the receiver answers as soon as its stack
// has the answer, candidates wait for the remote description, and the other peer leaving the
// room before this peer's data channel is open fails the attempt.
import type { FrameInbox, SpecChannel } from './channel';
import { failure, violation, type Trace, type Tripwire } from './failure';
import { CONNECT_MS, OFFER_ANSWER_MS } from './limits';
import type { PeerFactory, PeerPort, RoomSeat, SeatEvent } from './room-seat';
import {
  candidateMid,
  decodeSignal,
  encodeCandidate,
  encodeDescription,
  withAnswerMaxMessageSize,
  type CandidateInit,
} from './signal-payload';

export type Role = 'sender' | 'receiver';

type Stage = 'joining' | 'waiting-for-peer' | 'negotiating' | 'open' | 'finished';

export interface RendezvousOptions {
  role: Role;
  roomId: string;
  createPeer: PeerFactory;
  /** Data-channel spec, "Connection requirement": native stacks fix up their answer. */
  raiseAnswerMaxMessageSize: boolean;
  tripwire: Tripwire;
  trace: Trace;
}

export interface OpenChannel {
  channel: SpecChannel;
  inbox: FrameInbox;
  /** Settles once the other side has everything sent before this side closed the channel. */
  landed: Promise<void>;
}

export class Rendezvous {
  /** The server gave this peer the role it expected. */
  readonly joined: Promise<void>;
  /** Sender: the receiver joined (and the offer is on its way). */
  readonly peerJoined: Promise<void>;
  readonly opened: Promise<OpenChannel>;
  readonly #options: RendezvousOptions;
  #seat: RoomSeat | undefined;
  #stage: Stage = 'joining';
  #peer: PeerPort | undefined;
  #remoteSdp: string | undefined;
  #settingRemote = false;
  readonly #queued: CandidateInit[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #resolveJoined!: () => void;
  #resolvePeerJoined!: () => void;
  #resolveOpened!: (open: OpenChannel) => void;

  constructor(options: RendezvousOptions) {
    this.#options = options;
    this.joined = new Promise((resolve) => (this.#resolveJoined = resolve));
    this.peerJoined = new Promise((resolve) => (this.#resolvePeerJoined = resolve));
    this.opened = new Promise((resolve) => (this.#resolveOpened = resolve));
  }

  /** The seat this peer signals through; events must reach `handle` from its creation. */
  attach(seat: RoomSeat): void {
    this.#seat = seat;
  }

  /** Every server event, synchronously: whatever this throws trips the wire (seat adapters). */
  handle(event: SeatEvent): void {
    const { role, trace } = this.#options;
    if (event.type !== 'signal' && event.type !== 'pong') trace.record(`server: ${event.type}`);
    if (this.#stage === 'finished') return;
    switch (event.type) {
      case 'room-joined':
        if (this.#stage !== 'joining') throw violation('room-joined arrived a second time');
        if (event.role !== role) {
          throw violation(`this peer joined as the ${role} but was given the role ${event.role}`);
        }
        this.#resolveJoined();
        if (role === 'sender') this.#stage = 'waiting-for-peer';
        else this.#negotiate();
        return;
      case 'user-connected':
        if (role !== 'sender' || this.#stage !== 'waiting-for-peer') {
          throw violation(`user-connected reached the ${role} while ${this.#stage}`);
        }
        // The instant the spec allows: in this same turn, before anything else is handled.
        this.#negotiate();
        this.#peer?.offer();
        this.#resolvePeerJoined();
        return;
      case 'signal':
        this.#signal(event.signal);
        return;
      case 'peer-disconnected':
        if (this.#stage === 'open') return;
        throw failure(
          `the other peer left the room (peer-disconnected) while this ${role} was ${this.#stage}, before its own data channel was open`,
        );
      case 'closed':
        if (this.#stage === 'open') return;
        throw failure(`the signaling connection closed while ${this.#stage}: ${event.why}`);
      case 'room-full':
        throw failure('the server said room-full');
      case 'error':
        throw failure(`the server sent error: ${event.message}`);
      case 'pong':
        return;
    }
  }

  /** The batch is over: later server events (the other peer leaving) no longer matter. */
  finish(): void {
    this.#stage = 'finished';
    clearTimeout(this.#timer);
  }

  close(): void {
    this.finish();
    this.#peer?.close();
  }

  #negotiate(): void {
    const { createPeer, tripwire, role } = this.#options;
    this.#stage = 'negotiating';
    this.#deadline(OFFER_ANSWER_MS, role === 'sender' ? 'the answer' : 'the offer');
    this.#peer = createPeer(
      {
        localDescription: (type, sdp) => this.#localDescription(type, sdp),
        localCandidate: (candidate) => {
          this.#send(encodeCandidate(candidate));
          this.#options.trace.record('sent candidate');
        },
        channelOpen: (channel) => this.#open(channel),
        note: (step) => this.#options.trace.record(step),
        connectionFailed: (why) => {
          if (this.#stage === 'negotiating') throw failure(`the connection failed: ${why}`);
        },
      },
      tripwire,
    );
  }

  #localDescription(type: 'offer' | 'answer', sdp: string): void {
    const expected = this.#options.role === 'sender' ? 'offer' : 'answer';
    if (type !== expected) throw failure(`this peer's stack produced an ${type}`);
    const fixed =
      type === 'answer' && this.#options.raiseAnswerMaxMessageSize
        ? withAnswerMaxMessageSize(sdp)
        : sdp;
    this.#send(encodeDescription(type, fixed));
    this.#options.trace.record(`sent ${type}`);
  }

  #signal(payload: unknown): void {
    const { role, trace } = this.#options;
    if (this.#stage !== 'negotiating' && this.#stage !== 'open') {
      throw violation(`a signal reached the ${role} while ${this.#stage}: none is due yet`);
    }
    const signal = decodeSignal(payload);
    if (signal.kind === 'end-of-candidates') return;
    if (signal.kind === 'candidate') {
      if (this.#remoteSdp === undefined) {
        this.#queued.push(signal.candidate);
        trace.record('got a candidate; queued until the remote description is set');
      } else {
        trace.record('got a candidate');
        this.#addCandidate(signal.candidate, this.#remoteSdp);
      }
      return;
    }
    const due = role === 'sender' ? 'answer' : 'offer';
    if (signal.type !== due) throw violation(`an ${signal.type} reached the ${role}`);
    if (this.#remoteSdp !== undefined || this.#settingRemote) {
      throw violation(`a second ${signal.type} arrived; the spec's sequence has one`);
    }
    trace.record(`got ${signal.type}`);
    this.#settingRemote = true;
    const peer = this.#peer;
    if (!peer) throw failure(`an ${signal.type} arrived before this peer had a connection`);
    const { tripwire } = this.#options;
    peer.acceptRemote(signal.type, signal.sdp).then(
      () => {
        this.#settingRemote = false;
        this.#remoteSdp = signal.sdp;
        if (this.#stage === 'negotiating') this.#deadline(CONNECT_MS, 'the data channel opening');
        for (const candidate of this.#queued.splice(0)) this.#addCandidate(candidate, signal.sdp);
      },
      (error: unknown) => tripwire.trip(error),
    );
  }

  #addCandidate(candidate: CandidateInit, remoteSdp: string): void {
    const { tripwire, trace } = this.#options;
    const mid = candidateMid(candidate, remoteSdp);
    this.#peer?.addCandidate(candidate, mid).then(
      (refused) => {
        // A candidate the stack cannot use (Chromium's mDNS names, for node-datachannel) costs
        // that route only; the connection forms over the others.
        if (refused) trace.record(`the stack refused candidate ${candidate.candidate}: ${refused}`);
      },
      (error: unknown) => tripwire.trip(error),
    );
  }

  #open(channel: SpecChannel): void {
    const peer = this.#peer;
    if (!peer || this.#stage !== 'negotiating') return;
    clearTimeout(this.#timer);
    this.#stage = 'open';
    this.#options.trace.record('data channel open');
    this.#resolveOpened({ channel, inbox: peer.inbox, landed: peer.landed });
  }

  #send(payload: object): void {
    if (this.#stage === 'finished') return;
    this.#seat?.signal(payload, this.#options.roomId);
  }

  #deadline(ms: number, what: string): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.#options.tripwire.trip(failure(`${what} did not come within ${ms} ms`)),
      ms,
    );
  }
}
