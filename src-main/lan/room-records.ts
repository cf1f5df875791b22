import { LABEL_MAX_BYTES } from '../../src-shared/lan/limits';

/** The DNS-SD service type a hosted room is announced under (RFC 6763), and its full name. */
export const ROOM_SERVICE_TYPE = 'ferry';
export const ROOM_SERVICE = `_${ROOM_SERVICE_TYPE}._tcp.local`;

/**
 * What a room is called unless the person names it: the same on every device, so the network
 * learns nothing about whose it is. A second one on the network becomes "Ferry room (2)".
 */
export const DEFAULT_ROOM_NAME = 'Ferry room';

/** What a hosted room tells the network about itself. */
export interface RoomAdvert {
  address: string;
  port: number;
  /** Data-channel protocol range of the host, as peers advertise it (`pv`, `pvMin`). */
  pv: number;
  pvMin: number;
}

/** A room as another device reads it from the network. */
export interface LanRoom {
  name: string;
  /** Where a browser or the command-line peer joins, e.g. http://192.168.1.20:3001. */
  url: string;
  pv: number;
  pvMin: number;
}

// Control and bidirectional-formatting characters let a stranger's room name pass for another.
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/gu;

function truncateToBytes(text: string, maxBytes: number): string {
  let result = '';
  let bytes = 0;
  for (const character of text) {
    bytes += Buffer.byteLength(character);
    if (bytes > maxBytes) break;
    result += character;
  }
  return result;
}

/**
 * A room name that fits one DNS label with room for a conflict's " (2)": printable, without
 * dots (dns-packet cannot escape them) and at most 58 bytes.
 */
export function roomLabel(name: string): string {
  const cleaned = name.replace(UNPRINTABLE, '').replaceAll('.', '-').trim();
  return truncateToBytes(cleaned, LABEL_MAX_BYTES).trim() || DEFAULT_ROOM_NAME;
}

export function sameName(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

/** The room name inside an instance name, or undefined when it is not a room of this type. */
export function roomNameOf(instance: string): string | undefined {
  const suffix = `.${ROOM_SERVICE}`;
  if (!instance.toLowerCase().endsWith(suffix)) return undefined;
  const name = instance.slice(0, -suffix.length).replace(UNPRINTABLE, '').trim();
  return name || undefined;
}

export function roomUrl(address: string, port: number): string {
  return `http://${address}:${port}`;
}

/**
 * The host name a room's SRV record points at: named after the address rather than the machine,
 * so it tells nobody the machine's name and never collides with the one the operating system's
 * own responder defends.
 */
export function roomHostName(address: string): string {
  return `ferry-${address.replaceAll('.', '-')}`;
}

/** The TXT record's entries: where to join, and the host's data-channel protocol range. */
export function roomText(advert: RoomAdvert): Record<'url' | 'pv' | 'pvMin', string> {
  return {
    url: roomUrl(advert.address, advert.port),
    pv: String(advert.pv),
    pvMin: String(advert.pvMin),
  };
}

function textEntries(data: unknown): Map<string, string> {
  const strings = (Array.isArray(data) ? data : [data]).map((entry) =>
    Buffer.isBuffer(entry) ? entry.toString('utf8') : String(entry),
  );
  const entries = new Map<string, string>();
  for (const entry of strings) {
    const equals = entry.indexOf('=');
    if (equals <= 0) continue;
    const key = entry.slice(0, equals).toLowerCase();
    // RFC 6763 section 6.4: keys are case-insensitive and only the first occurrence counts.
    if (!entries.has(key)) entries.set(key, entry.slice(equals + 1));
  }
  return entries;
}

function protocolNumber(value: string | undefined): number | undefined {
  if (value === undefined) return 1; // absent, like a peer that predates versioning
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}

/**
 * The join details in a room's TXT record, or undefined when they are unusable or hostile: the
 * URL must be plain http and name the very address the announcement came from, so a device on
 * the network cannot steer others to a site elsewhere.
 */
export function readRoomText(
  data: unknown,
  senderAddress: string,
): Omit<LanRoom, 'name'> | undefined {
  const entries = textEntries(data);
  const pv = protocolNumber(entries.get('pv'));
  const pvMin = protocolNumber(entries.get('pvmin'));
  if (pv === undefined || pvMin === undefined || pvMin > pv) return undefined;
  let url: URL;
  try {
    url = new URL(entries.get('url') ?? '');
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || url.username || url.password) return undefined;
  if (url.hostname !== senderAddress) return undefined;
  return { url: url.origin, pv, pvMin };
}
