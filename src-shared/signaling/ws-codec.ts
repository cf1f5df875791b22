// Decoding of WebSocket messages in both directions. A malformed message decodes to an error
// value carrying the `message` the server sends back; nothing here throws.
import * as v from 'valibot';
import { isRoomId } from './room-id';
import { SIGNALING_ERROR } from './signaling-errors';
import type { WsClientMessage, WsServerMessage } from './ws-messages';

export type Decoded<T> = { ok: true; message: T } | { ok: false; error: string };

const ROOM_ID = v.custom<string>(isRoomId, SIGNALING_ERROR.invalidRoomId);

/**
 * One JSON object with a string `type`, checked before the type is looked up: a message whose
 * `type` is not a string is malformed, not of an unknown type.
 */
const ENVELOPE = v.pipe(
  v.string(),
  v.parseJson(undefined, SIGNALING_ERROR.invalidJson),
  v.looseObject({ type: v.string() }),
);

const CLIENT_MESSAGE = v.pipe(
  ENVELOPE,
  v.variant(
    'type',
    [
      // The object's own message is the one for a missing key: no room id is an invalid one.
      v.object({ type: v.literal('join-room'), roomId: ROOM_ID }, SIGNALING_ERROR.invalidRoomId),
      v.pipe(
        v.object({
          type: v.literal('signal'),
          signal: v.nonNullish(v.unknown()),
          roomId: v.nullish(ROOM_ID),
        }),
        // A null room id is one left out.
        v.transform(({ roomId, ...message }) =>
          roomId == null ? message : { ...message, roomId },
        ),
      ),
      v.object({ type: v.literal('ping') }),
    ],
    SIGNALING_ERROR.unknownType,
  ),
);

const SERVER_MESSAGE = v.pipe(
  ENVELOPE,
  v.variant(
    'type',
    [
      v.object({ type: v.literal('room-joined'), role: v.picklist(['sender', 'receiver']) }),
      v.object({ type: v.literal('user-connected'), id: v.string() }),
      // The server relays a peer's signal untouched, null included.
      v.object({ type: v.literal('signal'), signal: v.unknown(), sender: v.string() }),
      v.object({ type: v.picklist(['peer-disconnected', 'room-full', 'pong']) }),
      v.object({ type: v.literal('error'), message: v.string() }),
    ],
    SIGNALING_ERROR.unknownType,
  ),
);

/** The first problem's message; a check without a message of its own means a malformed message. */
function decode<T>(schema: v.GenericSchema<string, T>, text: string): Decoded<T> {
  const read = v.safeParse(schema, text, {
    abortEarly: true,
    message: SIGNALING_ERROR.invalidMessage,
  });
  return read.success
    ? { ok: true, message: read.output }
    : { ok: false, error: read.issues[0].message };
}

/** What a native peer sent to the server. */
export function decodeWsClientMessage(text: string): Decoded<WsClientMessage> {
  return decode(CLIENT_MESSAGE, text);
}

/** What the server sent to a native peer. */
export function decodeWsServerMessage(text: string): Decoded<WsServerMessage> {
  return decode(SERVER_MESSAGE, text);
}
