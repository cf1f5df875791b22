import type { SignalingPort } from '../../../src-shared/session/ports';
import { SignalingSocket } from './signaling-socket';

/** The flows' `joinRoom` on socket.io: connect, join, and the seat keeps every event from then. */
export async function joinBrowserRoom(
  signalingAddress: string,
  roomId: string,
  stop: AbortSignal,
): Promise<SignalingPort> {
  const socket = await SignalingSocket.connect(signalingAddress, stop);
  try {
    await socket.join(roomId, stop);
  } catch (error) {
    socket.close();
    throw error;
  }
  return socket;
}
