// Decoding of what a browser peer emits on the event socket. Socket.io has already parsed the
// JSON; this checks the shape and, like the WebSocket codec, never throws.
import { isRoomId } from './room-id';
import { SIGNALING_ERROR } from './signaling-errors';
import type { SocketSignalRequest } from './socket-events';
import type { Decoded } from './ws-codec';

/** The payload of a `signal` event: an object with a `signal`, optionally `target` and `roomId`. */
export function decodeSocketSignalRequest(value: unknown): Decoded<SocketSignalRequest> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: SIGNALING_ERROR.invalidMessage };
  }
  const fields = value as Record<string, unknown>;
  if (fields.signal === undefined || fields.signal === null) {
    return { ok: false, error: SIGNALING_ERROR.invalidMessage };
  }
  const request: SocketSignalRequest = { signal: fields.signal };
  if (fields.target !== undefined && fields.target !== null) {
    if (typeof fields.target !== 'string') {
      return { ok: false, error: SIGNALING_ERROR.invalidMessage };
    }
    request.target = fields.target;
  }
  if (fields.roomId !== undefined && fields.roomId !== null) {
    if (!isRoomId(fields.roomId)) return { ok: false, error: SIGNALING_ERROR.invalidRoomId };
    request.roomId = fields.roomId;
  }
  return { ok: true, message: request };
}
