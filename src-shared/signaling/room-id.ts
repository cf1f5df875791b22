// A room id is a UUID in canonical 8-4-4-4-12 form, any version, in either case.
const ROOM_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isRoomId(value: unknown): value is string {
  return typeof value === 'string' && ROOM_ID_PATTERN.test(value);
}

/** Whether two room ids name the same room: ids are compared without regard to case. */
export function sameRoomId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
