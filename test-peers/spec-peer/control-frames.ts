// The control messages of the data-channel spec ("Resources and their fields", "Frame
// classification"), decoded as strictly as the spec allows: every field it names is checked,
// and anything a current peer could not have sent is a violation.
import { failure, violation } from './failure';
import { CONTROL_FRAME_MAX_BYTES, PROTOCOL_VERSION } from './limits';

/** The kind of peer this one plays: the spec gives native and browser peers different rules. */
export type Profile = 'native' | 'browser';

export type Frame = { kind: 'text'; text: string } | { kind: 'binary'; bytes: Uint8Array };

export interface VersionFields {
  pv?: number;
  pvMin?: number;
  ver?: string;
}

export interface Metadata extends VersionFields {
  type: 'metadata';
  id: string;
  fileName: string;
  fileSize: number;
  index: number;
  total: number;
  totalBytes: number;
}

export interface Ack extends VersionFields {
  type: 'ack';
  id: string;
  offset: number;
}

export interface Incompatible {
  type: 'incompatible';
  reason: string;
  pv: number;
  pvMin: number;
  ver?: string;
}

export type ControlMessage = Metadata | Ack | { type: 'end' } | { type: 'received' } | Incompatible;

export type Decoded = { known: true; message: ControlMessage } | { known: false; type: string };

const KNOWN_TYPES = new Set(['metadata', 'ack', 'end', 'received', 'incompatible']);
/** Data-channel spec, message tables: which way each known message may travel. */
const TO_RECEIVER = new Set(['metadata', 'end', 'incompatible']);
const TO_SENDER = new Set(['ack', 'received', 'incompatible']);

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function byteLength(text: string): number {
  return utf8.encode(text).byteLength;
}

/**
 * A frame the receiver got, which is a control message only as text (rule 1): at most 1000 bytes
 * (rule 2), JSON with a known type, an unknown type ignored (rule 3). A native receiver skips
 * leading whitespace, a browser receiver requires the opening `{` first (rule 6).
 */
export function decodeForReceiver(text: string, profile: Profile): Decoded {
  return decode(text, 'receiver', profile === 'native' ? text.trimStart() : text);
}

/** A frame the sender got, in either framing (rule 4); binary must be UTF-8 JSON. */
export function decodeForSender(frame: Frame): Decoded {
  let text: string;
  if (frame.kind === 'text') text = frame.text;
  else {
    if (frame.bytes.byteLength > CONTROL_FRAME_MAX_BYTES) {
      throw violation(
        `a ${frame.bytes.byteLength}-byte binary control frame reached the sender (limit ${CONTROL_FRAME_MAX_BYTES})`,
      );
    }
    try {
      text = strictUtf8.decode(frame.bytes);
    } catch {
      throw violation('a binary control frame reached the sender that is not UTF-8');
    }
  }
  return decode(text, 'sender', text);
}

function decode(raw: string, to: 'sender' | 'receiver', json: string): Decoded {
  const bytes = byteLength(raw);
  if (bytes > CONTROL_FRAME_MAX_BYTES) {
    throw violation(
      `a ${bytes}-byte control frame reached the ${to} (limit ${CONTROL_FRAME_MAX_BYTES}): ${raw.slice(0, 80)}…`,
    );
  }
  if (!json.startsWith('{')) {
    throw violation(`a control frame to the ${to} does not start with "{": ${JSON.stringify(raw)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw violation(`a control frame to the ${to} is not JSON: ${JSON.stringify(raw)}`);
  }
  if (!isRecord(parsed) || typeof parsed.type !== 'string') {
    throw violation(`a control frame to the ${to} has no string type: ${raw}`);
  }
  const type = parsed.type;
  if (!KNOWN_TYPES.has(type)) return { known: false, type };
  if (!(to === 'sender' ? TO_SENDER : TO_RECEIVER).has(type)) {
    throw violation(`"${type}" travelled to the ${to}, which the spec never sends that way`);
  }
  return { known: true, message: fields(type, parsed, raw) };
}

function fields(type: string, record: Record<string, unknown>, raw: string): ControlMessage {
  const where = `${type} ${raw}`;
  switch (type) {
    case 'metadata': {
      const index = whole(record.index, 'index', where, 1);
      const total = whole(record.total, 'total', where, 1);
      if (index > total) throw violation(`index ${index} is past total ${total}: ${where}`);
      return {
        type,
        id: text(record.id, 'id', where),
        fileName: text(record.fileName, 'fileName', where),
        fileSize: whole(record.fileSize, 'fileSize', where, 0),
        index,
        total,
        totalBytes: whole(record.totalBytes, 'totalBytes', where, 0),
        ...versionFields(record, where),
      };
    }
    case 'ack':
      return {
        type,
        id: text(record.id, 'id', where),
        offset: whole(record.offset, 'offset', where, 0),
        ...versionFields(record, where),
      };
    case 'incompatible': {
      const version = versionFields(record, where);
      if (version.pv === undefined || version.pvMin === undefined) {
        throw violation(`incompatible without pv and pvMin: ${raw}`);
      }
      if (typeof record.reason !== 'string')
        throw violation(`incompatible without a reason: ${raw}`);
      return {
        type,
        reason: record.reason,
        pv: version.pv,
        pvMin: version.pvMin,
        ver: version.ver,
      };
    }
    case 'end':
      return { type };
    default:
      return { type: 'received' };
  }
}

function versionFields(record: Record<string, unknown>, where: string): VersionFields {
  const out: VersionFields = {};
  if (record.pv !== undefined) out.pv = whole(record.pv, 'pv', where, 1);
  if (record.pvMin !== undefined) out.pvMin = whole(record.pvMin, 'pvMin', where, 1);
  if (out.pv !== undefined && out.pvMin !== undefined && out.pvMin > out.pv) {
    throw violation(`pvMin ${out.pvMin} is above pv ${out.pv}: ${where}`);
  }
  if (record.ver !== undefined) {
    if (typeof record.ver !== 'string' || record.ver === '') {
      throw violation(`ver is not a release string: ${where}`);
    }
    out.ver = record.ver;
  }
  return out;
}

function text(value: unknown, name: string, where: string): string {
  if (typeof value !== 'string' || value === '') {
    throw violation(`${name} is not a non-empty string: ${where}`);
  }
  return value;
}

function whole(value: unknown, name: string, where: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw violation(`${name} is not an integer of at least ${min}: ${where}`);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Data-channel spec, "Versioning" rules 2 and 3: a missing field counts as version 1. */
export function versionsOverlap(remote: VersionFields): boolean {
  const remoteMax = remote.pv ?? 1;
  const remoteMin = remote.pvMin ?? 1;
  return Math.max(PROTOCOL_VERSION.pvMin, remoteMin) <= Math.min(PROTOCOL_VERSION.pv, remoteMax);
}

/** A control message this peer sends, refused locally when it would break the frame limit. */
export function encodeControl(message: Record<string, unknown> & { type: string }): string {
  const encoded = JSON.stringify(message);
  if (byteLength(encoded) > CONTROL_FRAME_MAX_BYTES) {
    throw failure(`this peer's own ${message.type} would exceed ${CONTROL_FRAME_MAX_BYTES} bytes`);
  }
  return encoded;
}

export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}
