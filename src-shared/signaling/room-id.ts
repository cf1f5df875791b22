// A room id is a UUID in canonical 8-4-4-4-12 form, any version, in either case.
const ROOM_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isRoomId(value: unknown): value is string {
  return typeof value === 'string' && ROOM_ID_PATTERN.test(value);
}

/** Whether two room ids name the same room: ids are compared without regard to case. */
export function sameRoomId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * A room id drawn from a digest (64 lowercase hex digits) rather than at random, shaped as a
 * version-4, RFC 4122 UUID: the server takes any canonical UUID as a room. Rooms both peers find
 * without asking the server are named this way (docs/protocol.md, "Reconnect", "Pair rooms").
 */
export function roomIdFromDigest(hex: string): string {
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
