import { connectPeer } from '../../src-shared/session/connect-peer';
import { EngineError } from './engine-error';
import type { EngineTimeouts } from './engine-options';
import { nodeClock } from './node-clock';
import { PeerLink } from './peer-link';
import type { SignalingPort } from '../../src-shared/session/ports';

export interface LinkSetup {
  signaling: SignalingPort;
  iceServers: string[];
  relayOnly: boolean;
  timeouts: EngineTimeouts;
  cancelled: AbortSignal;
  /** The sender learns here when the receiver has joined and negotiation starts. */
  onPeerJoined?: () => void;
  /** A failed attempt is being replaced (attempt 2, 3, …). */
  onRetry?: (attempt: number) => void;
}

/**
 * The session core's connection lifecycle on node-datachannel: resolves with the open link, or
 * rejects with the core's failure. The signaling seat stays open; its owner leaves once the
 * transfer has started on both ends.
 */
export async function connectLink(setup: LinkSetup): Promise<PeerLink> {
  const { timeouts, cancelled } = setup;
  let latest: PeerLink | undefined;
  const connecting = connectPeer({
    signaling: setup.signaling,
    clock: nodeClock,
    timeouts: {
      offerAnswer: timeouts.offerAnswer,
      connect: timeouts.connect,
      attempt: timeouts.connectAttempt,
      channelGrace: timeouts.channelGrace,
      peerJoin: timeouts.peerJoin,
    },
    createPeer: (role) => {
      latest = new PeerLink({ role, iceServers: setup.iceServers, relayOnly: setup.relayOnly });
      return latest;
    },
    ...(setup.onPeerJoined === undefined ? {} : { onPeerJoined: setup.onPeerJoined }),
    ...(setup.onRetry === undefined ? {} : { onRetry: setup.onRetry }),
  });
  const cancel = () => connecting.cancel();
  if (cancelled.aborted) cancel();
  else cancelled.addEventListener('abort', cancel, { once: true });
  try {
    const result = await connecting.result;
    if (!result.ok) throw new EngineError(result.failure.code, result.failure.message);
    // The channel that opened belongs to the newest attempt: older ones were closed.
    if (latest === undefined || result.channel !== latest) {
      throw EngineError.withDetail('ERR_CONNECT_TIMEOUT', 'the open channel has no connection');
    }
    return latest;
  } finally {
    cancelled.removeEventListener('abort', cancel);
  }
}
