import { io, type Socket } from 'socket.io-client';
import { SOCKET_IO_PATH } from '../../../src-shared/signaling/endpoints';
import { SOCKET_CONNECT_TIMEOUT_MS } from '../../../src-shared/signaling/limits';
import type { OpenSeatSocket } from '../../../src-shared/session/room-join';
import { seatEventOfSocketEvent } from '../../../src-shared/session/seat-events';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../../src-shared/signaling/socket-events';

type PeerSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A page's event socket to the signaling server at `address`. A new connection would be a new
 * peer, outside its room and off its roster: a lost socket is not reconnected.
 */
export function connectEventSocket(address: string): PeerSocket {
  return io(address, {
    path: SOCKET_IO_PATH,
    reconnection: false,
    timeout: SOCKET_CONNECT_TIMEOUT_MS,
    forceNew: true,
  });
}

/**
 * A browser peer's socket for the room join (src-shared/session/room-join.ts): the event socket
 * (socket.io, path /socket.io/), which sends `join-room` once connected. It only translates;
 * what each server event means is the join's.
 */
export function openEventSocket(address: string): OpenSeatSocket {
  return (roomId, report) => {
    const socket = connectEventSocket(address);
    socket.once('connect', () => {
      socket.emit('join-room', roomId);
      report({ type: 'joining' });
    });
    socket.once('connect_error', (error) => report({ type: 'closed', reason: error.message }));
    const forward =
      (name: keyof ServerToClientEvents) =>
      (payload?: unknown): void => {
        const event = seatEventOfSocketEvent(name, payload);
        if (event !== undefined) report(event);
      };
    socket.on('room-joined', forward('room-joined'));
    socket.on('room-full', forward('room-full'));
    socket.on('user-connected', forward('user-connected'));
    socket.on('signal', forward('signal'));
    socket.on('peer-disconnected', forward('peer-disconnected'));
    socket.on('error', forward('error'));
    socket.on('disconnect', () => report({ type: 'closed' }));
    return {
      signal: (payload) => socket.emit('signal', { signal: payload, roomId }),
      close: () => socket.close(),
    };
  };
}
