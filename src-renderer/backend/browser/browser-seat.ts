import { ROLE_WAIT_TIMEOUT_MS } from '../../../src-shared/protocol/limits';
import type { SignalingPort } from '../../../src-shared/session/ports';
import { joinRoom } from '../../../src-shared/session/room-join';
import { browserClock } from './browser-clock';
import { openEventSocket } from './signaling-socket';

/** The flows' `joinRoom` on socket.io: the shared room join over the page's event socket. */
export function joinBrowserRoom(
  signalingAddress: string,
  roomId: string,
  stop: AbortSignal,
): Promise<SignalingPort> {
  const open = openEventSocket(signalingAddress);
  return joinRoom({ clock: browserClock, roleWaitMs: ROLE_WAIT_TIMEOUT_MS, open }, roomId, stop);
}
