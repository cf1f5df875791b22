import type {
  AckMessage,
  ControlType,
  IncomingMetadata,
  IncompatibleMessage,
  ReceiverMessage,
  SenderMessage,
  VersionAdvert,
} from './messages';

/** Why a frame that is not file data was not read as a control message. */
export type IgnoredWhy =
  | 'not-utf8'
  | 'not-json'
  | 'not-an-object'
  | 'leading-whitespace'
  | 'unknown-type'
  | 'wrong-direction';

/**
 * The outcome of reading one control frame's JSON: a message, a known message whose fields are
 * unusable (`refused`, carrying a reason fit to send back), or something to ignore.
 */
export type ControlReading<M> =
  | { kind: 'control'; message: M }
  | { kind: 'refused'; type: ControlType; problem: string }
  | { kind: 'ignored'; why: IgnoredWhy };

type JsonObject = Record<string, unknown>;

/** Parses JSON text that should be one object; never throws, whatever the text. */
export function parseJsonObject(text: string): JsonObject | IgnoredWhy {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not-json';
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : 'not-an-object';
}

/** Reads a message a sender sent: metadata, end or incompatible. */
export function readSenderMessage(json: JsonObject): ControlReading<SenderMessage> {
  const type = own(json, 'type');
  switch (type) {
    case 'metadata': {
      const read = readMetadata(json);
      return typeof read === 'string'
        ? { kind: 'refused', type, problem: read }
        : { kind: 'control', message: read };
    }
    case 'end':
      return { kind: 'control', message: { type } };
    case 'incompatible':
      return { kind: 'control', message: readIncompatible(json) };
    case 'ack':
    case 'received':
      return { kind: 'ignored', why: 'wrong-direction' };
    default:
      return { kind: 'ignored', why: 'unknown-type' };
  }
}

/** Reads a message a receiver sent: ack, received or incompatible. */
export function readReceiverMessage(json: JsonObject): ControlReading<ReceiverMessage> {
  const type = own(json, 'type');
  switch (type) {
    case 'ack': {
      const read = readAck(json);
      return typeof read === 'string'
        ? { kind: 'refused', type, problem: read }
        : { kind: 'control', message: read };
    }
    case 'received':
      return { kind: 'control', message: { type } };
    case 'incompatible':
      return { kind: 'control', message: readIncompatible(json) };
    case 'metadata':
    case 'end':
      return { kind: 'ignored', why: 'wrong-direction' };
    default:
      return { kind: 'ignored', why: 'unknown-type' };
  }
}

// Only own properties count, so keys such as "__proto__" or "constructor" never reach a message.
function own(json: JsonObject, key: string): unknown {
  return Object.hasOwn(json, key) ? json[key] : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function readMetadata(json: JsonObject): IncomingMetadata | string {
  const id = own(json, 'id');
  const fileName = own(json, 'fileName');
  const fileSize = own(json, 'fileSize');
  const index = own(json, 'index');
  const total = own(json, 'total');
  const totalBytes = own(json, 'totalBytes');
  if (typeof id !== 'string') return 'id is missing or not a string';
  if (typeof fileName !== 'string' || fileName === '') return 'fileName is missing or empty';
  if (!isCount(index) || index < 1) return 'index is not a 1-based position';
  if (!isCount(total) || total < index) return 'total is not a count covering index';
  if (!isCount(totalBytes)) return 'totalBytes is not a byte count';
  const advert = readAdvert(json);
  if (typeof advert === 'string') return advert;
  return {
    type: 'metadata',
    id,
    fileName,
    // An unusable size is the receiver's call (browser: skip the check; native: read as 0).
    fileSize: isCount(fileSize) ? fileSize : undefined,
    index,
    total,
    totalBytes,
    ...advert,
  };
}

function readAck(json: JsonObject): AckMessage | string {
  const id = own(json, 'id');
  const offset = own(json, 'offset');
  if (typeof id !== 'string') return 'id is missing or not a string';
  if (!isCount(offset)) return 'offset is not a byte count';
  const advert = readAdvert(json);
  if (typeof advert === 'string') return advert;
  return { type: 'ack', id, offset, ...advert };
}

// An incompatible always stops the transfer, so malformed fields are dropped rather than refused.
function readIncompatible(json: JsonObject): IncompatibleMessage {
  const reason = own(json, 'reason');
  const pv = own(json, 'pv');
  const pvMin = own(json, 'pvMin');
  const ver = own(json, 'ver');
  const message: IncompatibleMessage = {
    type: 'incompatible',
    reason: typeof reason === 'string' ? reason : '',
  };
  if (isVersion(pv)) message.pv = pv;
  if (isVersion(pvMin)) message.pvMin = pvMin;
  if (typeof ver === 'string') message.ver = ver;
  return message;
}

function isVersion(value: unknown): value is number {
  return isCount(value) && value >= 1;
}

/**
 * `pv` and `pvMin` gate the transfer, so a present but unusable value refuses the message; null
 * reads as absent. `ver` never gates anything, so a non-string one is dropped.
 */
function readAdvert(json: JsonObject): VersionAdvert | string {
  const advert: VersionAdvert = {};
  for (const key of ['pv', 'pvMin'] as const) {
    const value = own(json, key);
    if (value === undefined || value === null) continue;
    if (!isVersion(value)) return `${key} is not a protocol version`;
    advert[key] = value;
  }
  const ver = own(json, 'ver');
  if (typeof ver === 'string') advert.ver = ver;
  return advert;
}
