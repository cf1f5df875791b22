// Decoding of what a browser peer emits on the event socket. Socket.io has already parsed the
// JSON; this checks the shape and, like the WebSocket codec, never throws.
import * as v from 'valibot';
import { isRoomId } from './room-id';
import { SIGNALING_ERROR } from './signaling-errors';
import type { SocketSignalRequest } from './socket-events';
import type { Decoded } from './ws-codec';

/** The payload of a `signal` event: an object with a `signal`, optionally `target` and `roomId`. */
const SIGNAL_REQUEST = v.object({
  signal: v.nonNullish(v.unknown()),
  target: v.nullish(v.string()),
  roomId: v.nullish(v.custom<string>(isRoomId, SIGNALING_ERROR.invalidRoomId)),
});

export function decodeSocketSignalRequest(value: unknown): Decoded<SocketSignalRequest> {
  // The first problem decides; only a bad room id has a message of its own.
  const read = v.safeParse(SIGNAL_REQUEST, value, {
    abortEarly: true,
    message: SIGNALING_ERROR.invalidMessage,
  });
  if (!read.success) return { ok: false, error: read.issues[0].message };
  // A field sent as null is one left out.
  const { signal, target, roomId } = read.output;
  const request: SocketSignalRequest = { signal };
  if (target != null) request.target = target;
  if (roomId != null) request.roomId = roomId;
  return { ok: true, message: request };
}
