// Decoding of WebSocket messages in both directions. A malformed message decodes to an error
// value carrying the `message` the server sends back; nothing here throws.
import { isRoomId } from './room-id';
import { SIGNALING_ERROR } from './signaling-errors';
import type { WsClientMessage, WsServerMessage } from './ws-messages';

export type Decoded<T> = { ok: true; message: T } | { ok: false; error: string };

type Fields = Record<string, unknown>;

function parseObject(text: string): Decoded<Fields & { type: string }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: SIGNALING_ERROR.invalidJson };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: SIGNALING_ERROR.invalidMessage };
  }
  const fields = value as Fields;
  if (typeof fields.type !== 'string') return { ok: false, error: SIGNALING_ERROR.invalidMessage };
  return { ok: true, message: fields as Fields & { type: string } };
}

function invalid(): { ok: false; error: string } {
  return { ok: false, error: SIGNALING_ERROR.invalidMessage };
}

/** What a native peer sent to the server. */
export function decodeWsClientMessage(text: string): Decoded<WsClientMessage> {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const fields = parsed.message;
  switch (fields.type) {
    case 'join-room':
      if (!isRoomId(fields.roomId)) return { ok: false, error: SIGNALING_ERROR.invalidRoomId };
      return { ok: true, message: { type: 'join-room', roomId: fields.roomId } };
    case 'signal': {
      if (fields.signal === undefined || fields.signal === null) return invalid();
      if (fields.roomId === undefined || fields.roomId === null) {
        return { ok: true, message: { type: 'signal', signal: fields.signal } };
      }
      if (!isRoomId(fields.roomId)) return { ok: false, error: SIGNALING_ERROR.invalidRoomId };
      return {
        ok: true,
        message: { type: 'signal', signal: fields.signal, roomId: fields.roomId },
      };
    }
    case 'ping':
      return { ok: true, message: { type: 'ping' } };
    default:
      return { ok: false, error: SIGNALING_ERROR.unknownType };
  }
}

/** What the server sent to a native peer. */
export function decodeWsServerMessage(text: string): Decoded<WsServerMessage> {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const fields = parsed.message;
  switch (fields.type) {
    case 'room-joined':
      if (fields.role !== 'sender' && fields.role !== 'receiver') return invalid();
      return { ok: true, message: { type: 'room-joined', role: fields.role } };
    case 'user-connected':
      if (typeof fields.id !== 'string') return invalid();
      return { ok: true, message: { type: 'user-connected', id: fields.id } };
    case 'signal':
      if (fields.signal === undefined || typeof fields.sender !== 'string') return invalid();
      return {
        ok: true,
        message: { type: 'signal', signal: fields.signal, sender: fields.sender },
      };
    case 'peer-disconnected':
    case 'room-full':
    case 'pong':
      return { ok: true, message: { type: fields.type } };
    case 'error':
      if (typeof fields.message !== 'string') return invalid();
      return { ok: true, message: { type: 'error', message: fields.message } };
    default:
      return { ok: false, error: SIGNALING_ERROR.unknownType };
  }
}
