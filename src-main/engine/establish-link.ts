import type { PeerRole } from '../../src-shared/signaling/peer-role';
import { EngineError } from './engine-error';
import { readNegotiationSignal, type NegotiationSignal } from './negotiation-signal';
import { PeerLink } from './peer-link';
import type { SignalingClient } from './signaling-client';

export interface LinkSetup {
  signaling: SignalingClient;
  role: PeerRole;
  iceServers: string[];
  relayOnly: boolean;
  timeouts: { offerAnswer: number; connect: number; channelGrace: number };
  cancelled: AbortSignal;
  /** The sender learns here when the receiver has joined and negotiation starts. */
  onPeerJoined?: () => void;
}

/**
 * Negotiates the data channel through signaling and resolves once it is open; the signaling
 * socket is closed either way, its part being over. The sender offers as soon as the receiver
 * joins; the receiver answers the first offer. Three deadlines apply: the other peer's offer or
 * answer, the whole ICE/DTLS/channel setup, and the channel once the peers are connected.
 */
export function establishLink(setup: LinkSetup): Promise<PeerLink> {
  const { signaling, role, timeouts, cancelled } = setup;
  return new Promise<PeerLink>((resolve, reject) => {
    let link: PeerLink | undefined;
    const early: NegotiationSignal[] = [];
    const timers = new Set<NodeJS.Timeout>();
    let settled = false;

    const after = (ms: number, error: EngineError): NodeJS.Timeout => {
      const timer = setTimeout(() => fail(error), ms);
      timers.add(timer);
      return timer;
    };
    const stop = (timer: NodeJS.Timeout | undefined) => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timers.delete(timer);
    };
    const finish = () => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      cancelled.removeEventListener('abort', onCancel);
      signaling.close();
      link?.removeAllListeners();
    };
    const fail = (error: EngineError) => {
      if (settled) return;
      finish();
      link?.close(0);
      reject(error);
    };
    const onCancel = () => fail(new EngineError('ERR_CANCELLED'));

    let answerTimer: NodeJS.Timeout | undefined;
    // Once offer and answer have crossed, the direct route decides: the other peer leaving
    // signaling then usually means its channel opened first, and its own deadlines still apply.
    let negotiated = false;
    const start = (): PeerLink => {
      const created = new PeerLink({
        role: role === 'sender' ? 'offerer' : 'answerer',
        iceServers: setup.iceServers,
        relayOnly: setup.relayOnly,
      });
      link = created;
      after(timeouts.connect, new EngineError('ERR_CONNECT_TIMEOUT'));
      created.on('signal', (signal) => signaling.signal(signal));
      created.on('connected', () =>
        after(timeouts.channelGrace, new EngineError('ERR_CHANNEL_TIMEOUT')),
      );
      created.on('open', () => {
        if (settled) return;
        finish();
        resolve(created);
      });
      // libdatachannel gives up on ICE by itself; there is no separate code for that outcome.
      created.on('closed', (reason) => fail(EngineError.withDetail('ERR_CONNECT_TIMEOUT', reason)));
      return created;
    };
    const apply = (payload: unknown) => {
      const signal = readNegotiationSignal(payload);
      if (signal === undefined || settled) return;
      if (signal.type !== 'candidate') {
        stop(answerTimer);
        negotiated = true;
      }
      if (link !== undefined) {
        link.applySignal(signal);
        return;
      }
      // Before the receiver's link exists, candidates wait for the offer that creates it.
      if (role !== 'receiver' || signal.type !== 'offer') {
        early.push(signal);
        return;
      }
      const answering = start();
      answering.applySignal(signal);
      for (const waiting of early.splice(0)) answering.applySignal(waiting);
    };

    if (cancelled.aborted) return onCancel();
    cancelled.addEventListener('abort', onCancel);
    signaling.on('signal', apply);
    signaling.on('lost', (error) => {
      if (!negotiated) fail(error);
    });
    signaling.on('peer-disconnected', () => {
      if (!negotiated) fail(new EngineError('ERR_PEER_CLOSED'));
    });
    if (role === 'sender') {
      signaling.once('user-connected', () => {
        setup.onPeerJoined?.();
        answerTimer = after(timeouts.offerAnswer, new EngineError('ERR_SIGNAL_TIMEOUT'));
        start();
      });
    } else {
      answerTimer = after(timeouts.offerAnswer, new EngineError('ERR_SIGNAL_TIMEOUT'));
    }
  });
}
