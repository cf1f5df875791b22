import type MulticastDns from 'multicast-dns';

/** One DNS resource record as multicast-dns sends and receives it. */
type DnsRecord = MulticastDns.ResponseOutgoingPacket['answers'][number];
type NameRecord = Extract<DnsRecord, { data: string }>;
type ServiceRecord = Extract<DnsRecord, { type: 'SRV' }>;
type TextRecord = Extract<DnsRecord, { type: 'TXT' }>;

/** A question as received; `type` is a plain string because dns-packet's typings omit ANY. */
export interface DnsQuestion {
  name: string;
  type: string;
}

/** The DNS-SD service type a hosted room is announced under (RFC 6763). */
export const ROOM_SERVICE = '_ferry._tcp.local';

// RFC 6763 section 9: lets generic tools (avahi-browse -a, dns-sd -B) list the service type.
const SERVICE_ENUMERATION = '_services._dns-sd._udp.local';

// A room whose host vanishes without a goodbye drops off other devices' lists within two minutes.
const ROOM_RECORD_TTL_SECONDS = 120;

// DNS labels hold at most 63 bytes, and dns-packet writes longer ones without complaint.
const LABEL_MAX_BYTES = 63;

const FALLBACK_ROOM_NAME = 'Ferry';

/** What a hosted room tells the network about itself. */
export interface RoomAdvert {
  name: string;
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

export interface RoomRecords {
  pointer: NameRecord;
  service: ServiceRecord;
  text: TextRecord;
  host: NameRecord;
  enumeration: NameRecord;
}

export interface RoomResponse {
  answers: DnsRecord[];
  additionals: DnsRecord[];
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
 * A room name that fits one DNS label: printable, without dots (dns-packet cannot escape them)
 * and at most 63 bytes.
 */
export function roomLabel(name: string): string {
  const cleaned = name.replace(UNPRINTABLE, '').replaceAll('.', '-').trim();
  return truncateToBytes(cleaned, LABEL_MAX_BYTES).trim() || FALLBACK_ROOM_NAME;
}

/** "Ferry on <host>", with the host's first label only: `mbp.local` reads as `mbp`. */
export function defaultRoomName(hostname: string): string {
  const [firstLabel] = hostname.split('.');
  return roomLabel(`Ferry on ${firstLabel || hostname}`);
}

export function sameName(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

function instanceName(roomName: string): string {
  return `${roomLabel(roomName)}.${ROOM_SERVICE}`;
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

/** PTR, SRV, TXT and A records for a room, all with the given lifetime (0 says goodbye). */
export function roomRecords(
  advert: RoomAdvert,
  ttl: number = ROOM_RECORD_TTL_SECONDS,
): RoomRecords {
  const instance = instanceName(advert.name);
  // Named after the address rather than the machine, so it never collides with the host name
  // the operating system's own responder defends.
  const hostName = `ferry-${advert.address.replaceAll('.', '-')}.local`;
  return {
    pointer: { name: ROOM_SERVICE, type: 'PTR', ttl, data: instance },
    service: {
      name: instance,
      type: 'SRV',
      ttl,
      flush: true,
      data: { port: advert.port, target: hostName, priority: 0, weight: 0 },
    },
    text: {
      name: instance,
      type: 'TXT',
      ttl,
      flush: true,
      data: [
        `url=${roomUrl(advert.address, advert.port)}`,
        `pv=${advert.pv}`,
        `pvMin=${advert.pvMin}`,
      ],
    },
    host: { name: hostName, type: 'A', ttl, flush: true, data: advert.address },
    enumeration: { name: SERVICE_ENUMERATION, type: 'PTR', ttl, data: ROOM_SERVICE },
  };
}

/**
 * Everything a room says when it starts, and again with lifetime 0 when it closes. The service
 * enumeration record is shared with every other room on the network, so it is only ever answered,
 * never announced or withdrawn.
 */
export function fullAnnouncement(records: RoomRecords): DnsRecord[] {
  return [records.pointer, records.service, records.text, records.host];
}

function asks(question: DnsQuestion, name: string, ...types: string[]): boolean {
  return sameName(question.name, name) && [...types, 'ANY'].includes(question.type);
}

/** The response a room owes a query, or undefined when the query is not about it. */
export function answerQuestions(
  questions: readonly DnsQuestion[],
  records: RoomRecords,
): RoomResponse | undefined {
  const answers = new Set<DnsRecord>();
  const additionals = new Set<DnsRecord>();
  for (const question of questions) {
    if (asks(question, ROOM_SERVICE, 'PTR')) {
      answers.add(records.pointer);
      [records.service, records.text, records.host].forEach((record) => additionals.add(record));
    }
    if (asks(question, records.service.name, 'SRV', 'TXT')) {
      answers.add(records.service).add(records.text);
      additionals.add(records.host);
    }
    if (asks(question, records.host.name, 'A')) answers.add(records.host);
    if (asks(question, SERVICE_ENUMERATION, 'PTR')) answers.add(records.enumeration);
  }
  if (answers.size === 0) return undefined;
  return { answers: [...answers], additionals: [...additionals].filter((r) => !answers.has(r)) };
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
