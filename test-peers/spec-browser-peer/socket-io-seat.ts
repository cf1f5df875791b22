// Signaling spec, "Event-socket transport (browser)": socket.io on /socket.io/. Every event from
// the server is checked against the spec's table; an event it does not list is a violation.
import { io } from 'socket.io-client';
import { failure, violation } from '../spec-peer/failure';
import { ROLE_WAIT_MS } from '../spec-peer/limits';
import type { SeatEvent, SeatFactory } from '../spec-peer/room-seat';

export const createSocketIoSeat: SeatFactory = async (serverUrl, listener, tripwire) => {
  // No reconnection: a second connection would be a new seat the room knows nothing about.
  const socket = io(serverUrl, { reconnection: false, forceNew: true, timeout: ROLE_WAIT_MS });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error: Error) => {
      reject(failure(`the event socket at ${serverUrl} failed: ${error.message}`));
    });
  });
  const deliver = tripwire.guard(listener);
  socket.onAny(
    tripwire.guard((event: string, ...payload: unknown[]) => deliver(serverEvent(event, payload))),
  );
  socket.on('disconnect', (reason: string) => deliver({ type: 'closed', why: reason }));
  return {
    join: (roomId) => void socket.emit('join-room', roomId),
    signal: (signal, roomId) => void socket.emit('signal', { signal, roomId }),
    leave: () => void socket.disconnect(),
  };
};

/** Signaling spec, "Event-socket: server to client". */
function serverEvent(event: string, payload: unknown[]): SeatEvent {
  const [first] = payload;
  const fields =
    typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  const raw = `${event} ${JSON.stringify(payload)}`;
  switch (event) {
    case 'room-joined':
      if (fields?.role !== 'sender' && fields?.role !== 'receiver') {
        throw violation(`room-joined without a role: ${raw}`);
      }
      return { type: 'room-joined', role: fields.role };
    case 'user-connected':
      if (typeof first !== 'string') throw violation(`user-connected without a peer id: ${raw}`);
      return { type: 'user-connected' };
    case 'signal':
      if (fields?.signal === undefined || typeof fields.sender !== 'string') {
        throw violation(`signal without its signal and sender: ${raw}`);
      }
      return { type: 'signal', signal: fields.signal };
    case 'peer-disconnected':
    case 'room-full':
      return { type: event };
    case 'error':
      if (typeof fields?.message !== 'string') throw violation(`error without a message: ${raw}`);
      return { type: 'error', message: fields.message };
    default:
      throw violation(`the server sent an event the spec does not list: ${raw}`);
  }
}
