import type { SignalingPort } from '../../src-shared/session/ports';
import type { PeerOptions } from './engine-options';
import { filteredSignaling } from './filtered-signaling';
import { SignalingClient } from './signaling-client';

/** The flows' `joinRoom` on the ws transport, with the test seam's filter when there is one. */
export async function joinSignalingRoom(
  options: PeerOptions,
  roomId: string,
  roleWaitMs: number,
  stop: AbortSignal,
): Promise<SignalingPort> {
  const { client } = await SignalingClient.join(options.serverUrl, roomId, roleWaitMs, stop);
  return filteredSignaling(client, options.signalFilter);
}
