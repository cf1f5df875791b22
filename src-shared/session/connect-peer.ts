import {
  defaultFailure,
  ERROR_MESSAGES,
  type ErrorCode,
  type Failure,
} from '../protocol/error-codes';
import { CHANNEL_GRACE_MS, CONNECT_TIMEOUT_MS, OFFER_ANSWER_TIMEOUT_MS } from '../protocol/limits';
import { CODE_LIFETIME_MS } from '../signaling/limits';
import { outgoingSignal } from './max-message-size';
import { decodeSignal, encodeSignal, type NegotiationSignal } from './negotiation-signal';
import { RemoteCandidates } from './remote-candidates';
import { refusalOfRemoteDescription } from './remote-description';
import {
  ANSWERER_CHECKS_HOLD_MS,
  CONNECT_ATTEMPT_TIMEOUT_MS,
  CONNECT_ATTEMPTS_MAX,
} from './session-limits';
import { SessionFailure } from './session-failure';
import type { ConnectingStage } from '../transfer/transfer-view';
import type {
  ChannelPort,
  Clock,
  ClockTimer,
  PeerConnectionFactory,
  PeerConnectionPort,
  RouteChoice,
  SignalingEvent,
  SignalingPort,
} from './ports';

export interface ConnectTimeouts {
  /** Receiver: the sender joined before it, so no offer within this long means it is gone. */
  offerAnswer: number;
  /** The whole setup window, from the first offer: every attempt fits inside it. */
  connect: number;
  /** One attempt, from its offer until its channel is open. */
  attempt: number;
  /** The data channel opening once ICE and DTLS are up. */
  channelGrace: number;
  /** Sender: how long the code lets a receiver join. */
  peerJoin: number;
}

/** The spec's deadlines, and Ferry's per-attempt one inside them. */
export const CONNECT_TIMEOUTS: ConnectTimeouts = {
  offerAnswer: OFFER_ANSWER_TIMEOUT_MS,
  connect: CONNECT_TIMEOUT_MS,
  attempt: CONNECT_ATTEMPT_TIMEOUT_MS,
  channelGrace: CHANNEL_GRACE_MS,
  peerJoin: CODE_LIFETIME_MS,
};

export interface ConnectOptions {
  signaling: SignalingPort;
  createPeer: PeerConnectionFactory;
  clock: Clock;
  timeouts: ConnectTimeouts;
  /** Sender: the receiver joined and negotiation starts. */
  onPeerJoined?(): void;
  /** A failed attempt is being replaced by attempt number `attempt` (2, 3, …). */
  onRetry?(attempt: number): void;
  /** Receiver: the first offer came; either side: ICE and DTLS are up (docs/protocol.md). */
  onStage?(stage: Exclude<ConnectingStage, 'finding'>): void;
}

export type ConnectResult = { ok: true; channel: ChannelPort } | { ok: false; failure: Failure };

export interface Connecting {
  readonly result: Promise<ConnectResult>;
  /** Gives up at once; the result is then ERR_CANCELLED. */
  cancel(): void;
}

/**
 * The connection lifecycle of every Ferry peer (docs/protocol.md, "Connection lifecycle" and
 * "Setup retry"). The sender offers once the receiver joins, the receiver answers. A failed
 * attempt (ICE or DTLS failed, the channel not open in time) is replaced by a new one while the
 * spec's 30 s window lasts: the offerer makes a new connection and offer, numbered in the
 * signal's `attempt`, and the answerer follows the newest offer. The signaling seat is not left
 * here: the caller leaves once the transfer has started on both ends.
 */
export function connectPeer(options: ConnectOptions): Connecting {
  const attempts = new ConnectionAttempts(options);
  return { result: attempts.result, cancel: () => attempts.fail(defaultFailure('ERR_CANCELLED')) };
}

interface Attempt {
  number: number | undefined;
  peer: PeerConnectionPort;
  settingRemote: boolean;
  /**
   * The other side's candidates; an answerer holds the offerer's back while its own checks may
   * still race the answer.
   */
  candidates: RemoteCandidates;
  timers: ClockTimer[];
  stop: () => void;
}

class ConnectionAttempts {
  readonly result: Promise<ConnectResult>;
  readonly #options: ConnectOptions;
  readonly #offerer: boolean;
  #settle!: (result: ConnectResult) => void;
  #settled = false;
  #stopListening: () => void = () => undefined;
  #current: Attempt | undefined;
  #attemptNumber = 0;
  /** Candidates that came before the offer they belong to (answerer only). */
  readonly #early: NegotiationSignal[] = [];
  #waitTimer: ClockTimer | undefined;
  #windowTimer: ClockTimer | undefined;
  #windowOver = false;
  /** What the failed attempts got as far as, for the final word. */
  #descriptionsCrossed = false;
  #everConnected = false;
  #lastProblem: string | undefined;
  /** The seat is gone: a failed attempt cannot be replaced. */
  #signalingGone: Failure | undefined;

  constructor(options: ConnectOptions) {
    this.#options = options;
    this.#offerer = options.signaling.role === 'sender';
    this.result = new Promise((resolve) => (this.#settle = resolve));
    const { clock, timeouts } = options;
    this.#waitTimer = this.#offerer
      ? clock.setTimeout(() => this.fail(defaultFailure('ERR_CODE_EXPIRED')), timeouts.peerJoin)
      : clock.setTimeout(
          () => this.fail(defaultFailure('ERR_SIGNAL_TIMEOUT')),
          timeouts.offerAnswer,
        );
    this.#stopListening = options.signaling.listen((event) => this.#onSignaling(event));
  }

  fail(failure: Failure): void {
    if (this.#settled) return;
    this.#finish();
    this.#current?.stop();
    this.#current = undefined;
    this.#settle({ ok: false, failure });
  }

  #finish(): void {
    this.#settled = true;
    this.#stopListening();
    this.#waitTimer?.cancel();
    this.#windowTimer?.cancel();
  }

  #onSignaling(event: SignalingEvent): void {
    if (this.#settled) return;
    switch (event.type) {
      case 'user-connected':
        if (this.#offerer && this.#attemptNumber === 0) {
          this.#waitTimer?.cancel();
          this.#options.onPeerJoined?.();
          this.#openWindow();
          this.#startAttempt();
        }
        return;
      case 'signal': {
        const signal = decodeSignal(event.payload);
        if (signal !== undefined) this.#onSignal(signal);
        return;
      }
      case 'peer-disconnected':
        // Once offer and answer have crossed, the direct route decides: a peer that leaves the
        // room as soon as its own channel opens is no failure, and our own deadlines still apply.
        this.#seatGone(defaultFailure('ERR_PEER_CLOSED'));
        return;
      case 'lost':
        this.#seatGone(event.failure);
        return;
    }
  }

  /** Without the room no attempt can be replaced: the one under way is the last. */
  #seatGone(failure: Failure): void {
    if (!this.#descriptionsCrossed) {
      this.fail(failure);
      return;
    }
    this.#signalingGone = failure;
    if (this.#current === undefined) this.#giveUp();
  }

  /** The setup window opens with the first offer; when it closes, so does the last attempt. */
  #openWindow(): void {
    if (this.#windowTimer !== undefined) return;
    this.#windowTimer = this.#options.clock.setTimeout(() => {
      this.#windowOver = true;
      this.#giveUp();
    }, this.#options.timeouts.connect);
  }

  #onSignal(signal: NegotiationSignal): void {
    // Refused before any stack sees it, whichever attempt it names: no attempt may be made with
    // it, and the connection it came over is not to be trusted for another.
    const refused =
      signal.type === 'candidate' ? undefined : refusalOfRemoteDescription(signal.sdp);
    if (refused !== undefined) {
      this.fail(refused);
      return;
    }
    if (this.#offerer) {
      const current = this.#current;
      if (current === undefined || !this.#isFor(current, signal)) return;
      if (signal.type === 'answer') void this.#setRemote(current, signal.sdp);
      else if (signal.type === 'candidate') current.candidates.add(signal.candidate);
      return;
    }
    if (signal.type === 'offer') {
      this.#answer(signal);
      return;
    }
    if (signal.type !== 'candidate') return;
    const current = this.#current;
    if (current !== undefined && this.#isFor(current, signal)) {
      current.candidates.add(signal.candidate);
    } else {
      // Before the offer it belongs to; the next offer picks up those that match it.
      this.#early.push(signal);
    }
  }

  /** Payloads without a number belong to the current attempt (a spec peer numbers nothing). */
  #isFor(attempt: Attempt, signal: NegotiationSignal): boolean {
    return signal.attempt === undefined || attempt.number === undefined
      ? true
      : signal.attempt === attempt.number;
  }

  #answer(offer: Extract<NegotiationSignal, { sdp: string }>): void {
    const previous = this.#current;
    // The same offer twice changes nothing; a newer one replaces an attempt that has not opened.
    if (previous !== undefined && previous.number === offer.attempt) return;
    previous?.stop();
    this.#waitTimer?.cancel();
    this.#openWindow();
    if (this.#windowOver) return;
    // A newer offer replaces an attempt that failed or never opened: the receiver's person sees
    // the retry too.
    const retry = this.#attemptNumber > 0;
    this.#attemptNumber = offer.attempt ?? this.#attemptNumber + 1;
    if (retry) this.#options.onRetry?.(this.#attemptNumber);
    else this.#options.onStage?.('direct');
    const attempt = this.#begin('answerer', offer.attempt);
    const early = this.#early.splice(0);
    void this.#setRemote(attempt, offer.sdp).then(() => {
      for (const waiting of early) {
        if (waiting.type === 'candidate' && this.#isFor(attempt, waiting)) {
          attempt.candidates.add(waiting.candidate);
        } else this.#early.push(waiting);
      }
    });
  }

  #startAttempt(): void {
    this.#attemptNumber += 1;
    if (this.#attemptNumber > 1) this.#options.onRetry?.(this.#attemptNumber);
    this.#begin('offerer', this.#attemptNumber);
  }

  #begin(role: 'offerer' | 'answerer', number: number | undefined): Attempt {
    const { createPeer, clock, timeouts, signaling } = this.#options;
    const peer = createPeer(role);
    const attempt: Attempt = {
      number,
      peer,
      settingRemote: false,
      // A Ferry offerer numbers its attempts and covers the race from its side (it sends its
      // candidates only once the answer is applied); only another offerer's checks are held.
      candidates: new RemoteCandidates(peer, { hold: role === 'answerer' && number === undefined }),
      timers: [],
      stop: () => undefined,
    };
    const tagged = (signal: NegotiationSignal): NegotiationSignal =>
      number === undefined ? signal : { ...signal, attempt: number };
    const stopListening = peer.listen({
      signal: (signal) => {
        if (this.#current !== attempt) return;
        signaling.signal(encodeSignal(tagged(outgoingSignal(signal))));
      },
      connected: () => {
        if (this.#current !== attempt) return;
        this.#everConnected = true;
        this.#options.onStage?.('securing');
        this.#releaseHeld(attempt);
        attempt.timers.push(
          clock.setTimeout(
            () => this.#attemptFailed(attempt, ERROR_MESSAGES.ERR_CHANNEL_TIMEOUT),
            timeouts.channelGrace,
          ),
        );
      },
      open: (channel) => {
        if (this.#current !== attempt || this.#settled) return;
        for (const timer of attempt.timers) timer.cancel();
        stopListening();
        this.#finish();
        this.#settle({ ok: true, channel });
      },
      failed: (reason) => this.#attemptFailed(attempt, reason),
    });
    attempt.stop = () => {
      for (const timer of attempt.timers) timer.cancel();
      stopListening();
      peer.close();
    };
    attempt.timers.push(
      clock.setTimeout(
        () => this.#attemptFailed(attempt, 'the attempt timed out'),
        timeouts.attempt,
      ),
    );
    this.#current = attempt;
    return attempt;
  }

  async #setRemote(attempt: Attempt, sdp: string): Promise<void> {
    if (attempt.settingRemote) return;
    attempt.settingRemote = true;
    try {
      await attempt.peer.setRemoteDescription({
        type: this.#offerer ? 'answer' : 'offer',
        sdp,
      });
    } catch (error) {
      this.#attemptFailed(attempt, `the other device's description was refused (${String(error)})`);
      return;
    }
    if (this.#current !== attempt) return;
    this.#descriptionsCrossed = true;
    if (attempt.candidates.holding) {
      attempt.timers.push(
        this.#options.clock.setTimeout(() => this.#releaseHeld(attempt), ANSWERER_CHECKS_HOLD_MS),
      );
    }
    attempt.candidates.describedBy(sdp);
  }

  /** The answerer's checks may go now: its connection is up, or the hold is over. */
  #releaseHeld(attempt: Attempt): void {
    if (this.#current === attempt) attempt.candidates.release();
  }

  #attemptFailed(attempt: Attempt, reason: string): void {
    if (this.#current !== attempt || this.#settled) return;
    this.#lastProblem = reason;
    attempt.stop();
    this.#current = undefined;
    if (this.#windowOver || this.#signalingGone !== undefined) {
      this.#giveUp();
      return;
    }
    // The offerer starts over; the answerer waits for the offerer's next offer.
    if (!this.#offerer) return;
    if (this.#attemptNumber >= CONNECT_ATTEMPTS_MAX) this.#giveUp();
    else this.#startAttempt();
  }

  /** The window is over: the failure says how far the attempts got. */
  #giveUp(): void {
    if (this.#settled) return;
    const gone = this.#signalingGone;
    let code: ErrorCode;
    if (!this.#descriptionsCrossed) code = gone === undefined ? 'ERR_SIGNAL_TIMEOUT' : gone.code;
    else if (!this.#everConnected) code = 'ERR_NO_ROUTE';
    else code = 'ERR_CHANNEL_TIMEOUT';
    const failure = defaultFailure(code);
    const detail = this.#lastProblem;
    this.fail(
      code === 'ERR_NO_ROUTE' || detail === undefined
        ? failure
        : { code, message: `${failure.message} (${detail})` },
    );
  }
}

/** The session core's connection lifecycle, cancellable, with its failure as a SessionFailure. */
export async function connect(
  ports: { clock: Clock; timeouts: ConnectTimeouts },
  seat: SignalingPort,
  route: RouteChoice,
  cancelled: AbortSignal,
  connecting: (step: { stage: ConnectingStage; retry?: number }) => void,
): Promise<ChannelPort> {
  // A retry starts its stages over; its count stays on every later step.
  let retry: { retry?: number } = {};
  const show = (stage: ConnectingStage): void => connecting({ stage, ...retry });
  const attempt = connectPeer({
    signaling: seat,
    createPeer: route.createPeer,
    clock: ports.clock,
    timeouts: ports.timeouts,
    onPeerJoined: () => show('direct'),
    onRetry: (number) => {
      retry = { retry: number - 1 };
      show('direct');
    },
    onStage: show,
  });
  const cancel = (): void => attempt.cancel();
  if (cancelled.aborted) cancel();
  else cancelled.addEventListener('abort', cancel, { once: true });
  try {
    const result = await attempt.result;
    if (!result.ok) throw SessionFailure.of(result.failure);
    return result.channel;
  } finally {
    cancelled.removeEventListener('abort', cancel);
  }
}
