import type { SignalingPort } from '../../src-shared/session/ports';
import { joinRoom } from '../../src-shared/session/room-join';
import type { PeerOptions } from './engine-options';
import { filteredSignaling } from './filtered-signaling';
import { nodeClock } from './node-clock';
import { openWsSocket } from './ws-socket';

/** The flows' `joinRoom` on the ws transport, with the test seam's filter when there is one. */
export async function joinSignalingRoom(
  options: Pick<PeerOptions, 'serverUrl' | 'serverCertificate' | 'signalFilter'>,
  roomId: string,
  roleWaitMs: number,
  stop: AbortSignal,
): Promise<SignalingPort> {
  const open = openWsSocket(options.serverUrl, options.serverCertificate);
  const seat = await joinRoom({ clock: nodeClock, roleWaitMs, open }, roomId, stop);
  return filteredSignaling(seat, options.signalFilter);
}
