import { connectPeer, CONNECT_TIMEOUTS } from '../../../src-shared/session/connect-peer';
import type { ChannelPort } from '../../../src-shared/session/ports';
import { browserClock } from './browser-clock';
import { browserPeer } from './browser-peer';
import type { SignalingSocket } from './signaling-socket';
import { TransferFailure } from './transfer-failure';

export interface ChannelSetup {
  signaling: SignalingSocket;
  iceServers: RTCIceServer[];
  signal: AbortSignal;
  /** Sender: the receiver joined and negotiation starts. */
  onPeerJoined?(): void;
  /** A failed attempt is being replaced (attempt 2, 3, …). */
  onRetry?(attempt: number): void;
}

/**
 * The session core's connection lifecycle on the browser's RTCPeerConnection: resolves with the
 * open channel or rejects with a TransferFailure. The signaling seat stays open.
 */
export async function connectChannel(setup: ChannelSetup): Promise<ChannelPort> {
  const { signal } = setup;
  const connecting = connectPeer({
    signaling: setup.signaling,
    createPeer: (role) => browserPeer(role, setup.iceServers),
    clock: browserClock,
    timeouts: CONNECT_TIMEOUTS,
    ...(setup.onPeerJoined === undefined ? {} : { onPeerJoined: setup.onPeerJoined }),
    ...(setup.onRetry === undefined ? {} : { onRetry: setup.onRetry }),
  });
  const cancel = (): void => connecting.cancel();
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  try {
    const result = await connecting.result;
    if (!result.ok) throw new TransferFailure(result.failure);
    return result.channel;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
