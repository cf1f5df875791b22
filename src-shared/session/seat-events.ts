import * as v from 'valibot';
import { decodeWsServerMessage } from '../signaling/ws-codec';
import type { ServerToClientEvents } from '../signaling/socket-events';
import type { SeatSocketEvent } from './room-join';

// What either transport's server said, read as the room join's events (room-join.ts). The
// server is not trusted: a malformed message is dropped on both transports alike.

/** A /ws server message as a seat event; nothing for a malformed one or a `pong`. */
export function seatEventOfWsMessage(text: string): SeatSocketEvent | undefined {
  const decoded = decodeWsServerMessage(text);
  if (!decoded.ok) return undefined;
  const message = decoded.message;
  switch (message.type) {
    case 'room-joined':
      return { type: 'room-joined', role: message.role };
    case 'signal':
      return { type: 'signal', payload: message.signal };
    case 'error':
      return { type: 'error', message: message.message };
    case 'room-full':
    case 'user-connected':
    case 'peer-disconnected':
      return { type: message.type };
    case 'pong':
      return undefined;
  }
}

const ROOM_JOINED = v.object({ role: v.picklist(['sender', 'receiver']) });
const RELAYED_SIGNAL = v.looseObject({ signal: v.unknown() });
const SERVER_ERROR = v.looseObject({ message: v.string() });

/** An event-socket event from the server, with its payload, as a seat event; nothing when malformed. */
export function seatEventOfSocketEvent(
  name: keyof ServerToClientEvents,
  payload: unknown,
): SeatSocketEvent | undefined {
  switch (name) {
    case 'room-joined': {
      const read = v.safeParse(ROOM_JOINED, payload);
      return read.success ? { type: 'room-joined', role: read.output.role } : undefined;
    }
    case 'signal': {
      const read = v.safeParse(RELAYED_SIGNAL, payload);
      return read.success ? { type: 'signal', payload: read.output.signal } : undefined;
    }
    case 'error': {
      const read = v.safeParse(SERVER_ERROR, payload);
      return read.success ? { type: 'error', message: read.output.message } : undefined;
    }
    case 'room-full':
    case 'user-connected':
    case 'peer-disconnected':
      return { type: name };
  }
}
