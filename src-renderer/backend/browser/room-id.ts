/** The randomness a room id needs; `randomUUID` exists only in secure contexts. */
export interface RandomSource {
  getRandomValues<T extends ArrayBufferView>(array: T): T;
  randomUUID?: () => string;
}

/**
 * A fresh room id: a version-4 UUID. A page opened over plain HTTP (a LAN room on a phone) is
 * not a secure context and has no `crypto.randomUUID`, so the id is then built from
 * `getRandomValues`, which every context has.
 */
export function newRoomId(random: RandomSource = crypto): string {
  if (typeof random.randomUUID === 'function') return random.randomUUID();
  const bytes = random.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
