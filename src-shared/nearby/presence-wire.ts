// The presence extension's vocabulary on both socket transports (docs/protocol.md, "Presence"):
// on /ws each message is one JSON object whose `type` is the event name; on the event socket the
// event carries the same object without `type`. Decoding never throws.
import * as v from 'valibot';
import { cleanDeviceName } from '../devices/device-name';
import { isRoomId } from '../signaling/room-id';
import { SIGNALING_ERROR } from '../signaling/signaling-errors';
import type { Decoded } from '../signaling/ws-codec';
import type { DeviceKind, PresenceEntry } from './nearby-ports';

export type PresenceClientMessage =
  | { type: 'presence-join'; name: string; kind: DeviceKind }
  | { type: 'presence-invite'; to: string; roomId: string }
  | { type: 'presence-leave' };

export type PresenceServerMessage =
  /** The whole roster, the receiver excluded; `self` is the receiver's own id. */
  | { type: 'presence'; self: string; devices: PresenceEntry[] }
  | { type: 'presence-invite'; from: PresenceEntry; roomId: string };

export type PresenceClientType = PresenceClientMessage['type'];
export type PresenceServerType = PresenceServerMessage['type'];

export const PRESENCE_CLIENT_TYPES: readonly PresenceClientType[] = [
  'presence-join',
  'presence-invite',
  'presence-leave',
];

/** The `message` of the server's `error` for each presence request it refuses. */
export const PRESENCE_ERROR = {
  invalidName: 'Invalid device name',
  rosterFull: 'Presence roster full',
  notListed: 'Not on the presence roster',
  unknownDevice: 'No such device on the presence roster',
  tooManyInvites: 'Too many invitations',
} as const;

const DEVICE_KINDS = ['desktop', 'cli', 'browser'] as const satisfies readonly DeviceKind[];

const NAME = v.pipe(
  v.string(PRESENCE_ERROR.invalidName),
  v.transform(cleanDeviceName),
  v.string(PRESENCE_ERROR.invalidName),
);
const ROOM_ID = v.custom<string>(isRoomId, SIGNALING_ERROR.invalidRoomId);
const ENTRY = v.object({ id: v.string(), name: NAME, kind: v.picklist(DEVICE_KINDS) });

const CLIENT_MESSAGE = v.variant(
  'type',
  [
    v.object({ type: v.literal('presence-join'), name: NAME, kind: v.picklist(DEVICE_KINDS) }),
    v.object({ type: v.literal('presence-invite'), to: v.string(), roomId: ROOM_ID }),
    v.object({ type: v.literal('presence-leave') }),
  ],
  SIGNALING_ERROR.unknownType,
);

const SERVER_PAYLOADS = {
  presence: v.object({ self: v.string(), devices: v.array(ENTRY) }),
  'presence-invite': v.object({ from: ENTRY, roomId: ROOM_ID }),
} satisfies Record<PresenceServerType, v.GenericSchema>;

export function isPresenceClientType(type: unknown): type is PresenceClientType {
  return PRESENCE_CLIENT_TYPES.includes(type as PresenceClientType);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A presence request by event name and payload (on /ws the message itself), for the server: the
 * name cleaned with cleanDeviceName, a bad field answered with the `error` message the server
 * sends back. A payload that is no object counts as an empty one.
 */
export function decodePresenceRequest(
  type: PresenceClientType,
  payload: unknown,
): Decoded<PresenceClientMessage> {
  const read = v.safeParse(
    CLIENT_MESSAGE,
    { ...(isRecord(payload) ? payload : {}), type },
    {
      abortEarly: true,
      message: SIGNALING_ERROR.invalidMessage,
    },
  );
  return read.success
    ? { ok: true, message: read.output }
    : { ok: false, error: read.issues[0].message };
}

/**
 * A /ws text that is a presence request; undefined for anything else (not JSON, no presence
 * `type`), which the spec's decoding answers as it always has.
 */
export function decodePresenceWsText(text: string): Decoded<PresenceClientMessage> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !isPresenceClientType(parsed.type)) return undefined;
  return decodePresenceRequest(parsed.type, parsed);
}

/** A server message or event by name, for a program on the roster; undefined when malformed. */
export function decodePresenceMessage(
  type: string,
  payload: unknown,
): PresenceServerMessage | undefined {
  if (type === 'presence') {
    const read = v.safeParse(SERVER_PAYLOADS.presence, payload);
    return read.success ? { type, ...read.output } : undefined;
  }
  if (type === 'presence-invite') {
    const read = v.safeParse(SERVER_PAYLOADS['presence-invite'], payload);
    return read.success ? { type, ...read.output } : undefined;
  }
  return undefined;
}
