import * as v from 'valibot';
import { cleanDeviceName } from '../devices/device-name';
import { LINK_PROOF_PATTERN, SAS_HEX_PATTERN, VERIFY_DIGEST_PATTERN } from './limits';
import {
  CAPABILITIES,
  type AckMessage,
  type Capability,
  type CapsMessage,
  type ControlType,
  type DigestMessage,
  type ExtensionType,
  type IncomingMetadata,
  type IncompatibleMessage,
  type LinkProofMessage,
  type ListMessage,
  type OutcomeMessage,
  type ReceiverWireMessage,
  type ResumeMessage,
  type SasRevealMessage,
  type SenderWireMessage,
  type StartMessage,
  type VerifiedMessage,
  type ProgressMessage,
  type VersionAdvert,
} from './messages';

/** Why a frame that is not file data was not read as a control message. */
export type IgnoredWhy =
  | 'not-utf8'
  | 'not-json'
  | 'not-an-object'
  | 'leading-whitespace'
  | 'unknown-type'
  /** A `ferry-outcome` naming no outcome this build knows: the close that follows speaks for it. */
  | 'unknown-outcome'
  | 'wrong-direction';

/**
 * The outcome of reading one control frame's JSON: a message, a known message whose fields are
 * unusable (`refused`, carrying a reason fit to send back), or something to ignore.
 */
export type ControlReading<M> =
  | { kind: 'control'; message: M }
  | { kind: 'refused'; type: ControlType | ExtensionType; problem: string }
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

/** Reads a message a sender sent: metadata, end or incompatible, or one of Ferry's extensions. */
export function readSenderMessage(json: JsonObject): ControlReading<SenderWireMessage> {
  const type = own(json, 'type');
  switch (type) {
    case 'metadata':
      return readWith(METADATA, type, json);
    case 'end':
    case 'ferry-alive':
      return { kind: 'control', message: { type } };
    case 'incompatible':
      return readWith(INCOMPATIBLE, type, json);
    case 'ferry-caps':
      return readWith(SENDER_CAPS, type, json);
    case 'ferry-sas-reveal':
      return readWith(SAS_REVEAL, type, json);
    case 'ferry-link-proof':
      return readWith(LINK_PROOF, type, json);
    case 'ferry-start':
      return readWith(START, type, json);
    case 'ferry-digest':
      return readWith(DIGEST, type, json);
    case 'ferry-list':
      return readWith(LIST, type, json);
    case 'ferry-outcome':
      return readOutcome(json);
    case 'ack':
    case 'received':
    case 'ferry-resume':
    case 'ferry-verified':
    case 'ferry-progress':
      return { kind: 'ignored', why: 'wrong-direction' };
    default:
      return { kind: 'ignored', why: 'unknown-type' };
  }
}

/** Reads a message a receiver sent: ack, received or incompatible, or one of Ferry's extensions. */
export function readReceiverMessage(json: JsonObject): ControlReading<ReceiverWireMessage> {
  const type = own(json, 'type');
  switch (type) {
    case 'ack':
      return readWith(ACK, type, json);
    case 'received':
    case 'ferry-alive':
      return { kind: 'control', message: { type } };
    case 'incompatible':
      return readWith(INCOMPATIBLE, type, json);
    case 'ferry-caps':
      return readWith(RECEIVER_CAPS, type, json);
    case 'ferry-resume':
      return readWith(RESUME, type, json);
    case 'ferry-verified':
      return readWith(VERIFIED, type, json);
    case 'ferry-progress':
      return readWith(PROGRESS, type, json);
    case 'ferry-link-proof':
      return readWith(LINK_PROOF, type, json);
    case 'ferry-outcome':
      return readOutcome(json);
    case 'metadata':
    case 'end':
    case 'ferry-start':
    case 'ferry-digest':
    case 'ferry-list':
    case 'ferry-sas-reveal':
      return { kind: 'ignored', why: 'wrong-direction' };
    default:
      return { kind: 'ignored', why: 'unknown-type' };
  }
}

// Only own properties count, so keys such as "__proto__" or "constructor" never reach a message.
function own(json: JsonObject, key: string): unknown {
  return Object.hasOwn(json, key) ? json[key] : undefined;
}

/** Every field the schemas below read. */
const FIELDS = [
  'id',
  'fileName',
  'fileSize',
  'index',
  'total',
  'totalBytes',
  'offset',
  'reason',
  'caps',
  'prefix',
  'sha256',
  'files',
  'more',
  'commit',
  'nonce',
  'mac',
  'name',
  'text',
  'rejoin',
  'pair',
  'bytes',
  'pv',
  'pvMin',
  'ver',
];

/**
 * The message `schema` reads, or a refusal naming the first problem in field order. Every field
 * is handed over as present, a missing one as undefined, so that its own schema names the problem
 * rather than valibot's generic missing-key issue.
 */
function readWith<M>(
  schema: v.GenericSchema<unknown, M>,
  type: ControlType | ExtensionType,
  json: JsonObject,
): ControlReading<M> {
  const fields = Object.fromEntries(FIELDS.map((key) => [key, own(json, key)]));
  const read = v.safeParse(schema, fields);
  return read.success
    ? { kind: 'control', message: read.output }
    : { kind: 'refused', type, problem: read.issues[0].message };
}

/** A safe whole number of at least `min`; JSON's 1e400 reads as Infinity, which fails here. */
const whole = (min: number, problem?: string) =>
  v.pipe(v.number(problem), v.safeInteger(problem), v.minValue(min, problem));

/** A field whose unusable value reads as absent instead of refusing the message. */
const dropped = <T>(schema: v.GenericSchema<unknown, T>) =>
  v.fallback(v.undefinedable(schema), undefined);

const ID = v.string('id is missing or not a string');
const FILE_NAME = 'fileName is missing or empty';
const TOTAL = 'total is not a count covering index';

/**
 * `pv` and `pvMin` gate the transfer, so a present but unusable value refuses the message; null
 * reads as absent. `ver` never gates anything, so a non-string one is dropped.
 */
const ADVERT = {
  pv: v.nullish(whole(1, 'pv is not a protocol version')),
  pvMin: v.nullish(whole(1, 'pvMin is not a protocol version')),
  ver: dropped(v.string()),
};

interface AdvertFields {
  pv?: number | null;
  pvMin?: number | null;
  ver?: string;
}

/** The fields with the versions that read as absent left out, as encode.ts leaves them out. */
function withAdvert<T extends AdvertFields>({ pv, pvMin, ver, ...fields }: T) {
  const advert: VersionAdvert = {};
  if (typeof pv === 'number') advert.pv = pv;
  if (typeof pvMin === 'number') advert.pvMin = pvMin;
  if (ver !== undefined) advert.ver = ver;
  return { ...fields, ...advert };
}

const METADATA = v.pipe(
  // valibot checks across fields only once every field of the object reads, so total is checked
  // against index in a first part: a bad total is named before a bad totalBytes, in field order.
  v.intersect([
    v.pipe(
      v.object({
        id: ID,
        fileName: v.pipe(v.string(FILE_NAME), v.nonEmpty(FILE_NAME)),
        // An unusable size is the receiver's call (browser: skip the check; native: read as 0).
        fileSize: dropped(whole(0)),
        index: whole(1, 'index is not a 1-based position'),
        total: whole(0, TOTAL),
      }),
      v.check(({ index, total }) => total >= index, TOTAL),
    ),
    v.object({ totalBytes: whole(0, 'totalBytes is not a byte count'), ...ADVERT }),
  ]),
  v.transform((fields): IncomingMetadata => ({ type: 'metadata', ...withAdvert(fields) })),
);

const ACK = v.pipe(
  v.object({ id: ID, offset: whole(0, 'offset is not a byte count'), ...ADVERT }),
  v.transform((fields): AckMessage => ({ type: 'ack', ...withAdvert(fields) })),
);

// An incompatible always stops the transfer, so malformed fields are dropped rather than refused.
const INCOMPATIBLE = v.pipe(
  v.object({
    reason: v.fallback(v.string(), ''),
    pv: dropped(whole(1)),
    pvMin: dropped(whole(1)),
    ver: ADVERT.ver,
  }),
  v.transform((fields): IncompatibleMessage => ({ type: 'incompatible', ...withAdvert(fields) })),
);

const isCapability = (value: unknown): value is Capability =>
  (CAPABILITIES as readonly unknown[]).includes(value);

const COMMIT_PROBLEM = 'commit is not a SHA-256 digest in lowercase hex';
const NONCE_PROBLEM = 'nonce is not 32 bytes in lowercase hex';
const sasHex = (problem: string) => v.pipe(v.string(problem), v.regex(SAS_HEX_PATTERN, problem));

const CAPS_LIST = v.array(v.unknown(), 'caps is not a list');

/**
 * A device name is only ever a suggestion (docs/protocol.md, "Remembered devices"): one that is
 * no text or nothing once cleaned is dropped, and the capabilities beside it still read.
 */
const DEVICE_NAME = v.fallback(
  v.optional(v.pipe(v.string(), v.transform(cleanDeviceName))),
  undefined,
);

/**
 * Capabilities this build does not know are dropped, so a newer peer's list still reads. Each
 * direction reads only its own `sas` field: the sender's `commit`, the receiver's `nonce`.
 */
/** Only `true` says a text message: any other value reads as a batch of files. */
const TEXT_FLAG = v.fallback(v.optional(v.literal(true)), undefined);

/** An unusable rejoin secret is dropped: the batch then goes on without `reconnect`. */
const REJOIN_SECRET = v.fallback(
  v.optional(sasHex('rejoin is not 32 bytes in lowercase hex')),
  undefined,
);

/** An unusable pair share is dropped: the batch then goes on without `pair`. */
const PAIR_SHARE = v.fallback(
  v.optional(sasHex('pair is not 32 bytes in lowercase hex')),
  undefined,
);

const SENDER_CAPS = v.pipe(
  v.object({
    caps: CAPS_LIST,
    commit: v.optional(sasHex(COMMIT_PROBLEM)),
    name: DEVICE_NAME,
    text: TEXT_FLAG,
    rejoin: REJOIN_SECRET,
    pair: PAIR_SHARE,
  }),
  v.transform(({ caps, commit, name, text, rejoin, pair }): CapsMessage => ({
    type: 'ferry-caps',
    caps: caps.filter(isCapability),
    ...(commit === undefined ? {} : { commit }),
    ...(name === undefined ? {} : { name }),
    ...(text === undefined ? {} : { text }),
    ...(rejoin === undefined ? {} : { rejoin }),
    ...(pair === undefined ? {} : { pair }),
  })),
);

const RECEIVER_CAPS = v.pipe(
  v.object({
    caps: CAPS_LIST,
    nonce: v.optional(sasHex(NONCE_PROBLEM)),
    name: DEVICE_NAME,
    pair: PAIR_SHARE,
  }),
  v.transform(({ caps, nonce, name, pair }): CapsMessage => ({
    type: 'ferry-caps',
    caps: caps.filter(isCapability),
    ...(nonce === undefined ? {} : { nonce }),
    ...(name === undefined ? {} : { name }),
    ...(pair === undefined ? {} : { pair }),
  })),
);

const SAS_REVEAL = v.pipe(
  v.object({ nonce: sasHex(NONCE_PROBLEM) }),
  v.transform((fields): SasRevealMessage => ({ type: 'ferry-sas-reveal', ...fields })),
);

const MAC_PROBLEM = 'mac is not an HMAC-SHA256 in lowercase hex';

const LINK_PROOF = v.pipe(
  v.object({ mac: v.pipe(v.string(MAC_PROBLEM), v.regex(LINK_PROOF_PATTERN, MAC_PROBLEM)) }),
  v.transform((fields): LinkProofMessage => ({ type: 'ferry-link-proof', ...fields })),
);

const SAS_PROBLEMS: ReadonlySet<string> = new Set([COMMIT_PROBLEM, NONCE_PROBLEM]);

/**
 * Whether a refused message was verification input (a reveal, or a `commit` or `nonce` field):
 * it fails as the verification words would, not as a broken file description.
 */
export function refusesVerification(reading: { type: string; problem: string }): boolean {
  return reading.type === 'ferry-sas-reveal' || SAS_PROBLEMS.has(reading.problem);
}

/** Whether a refused message was a link proof: it fails as a proof that does not check out. */
export function refusesLinkProof(reading: { type: string }): boolean {
  return reading.type === 'ferry-link-proof';
}

const DIGEST_PROBLEM = 'is not a SHA-256 digest in lowercase hex';
const digest = (field: string) =>
  v.pipe(
    v.string(`${field} ${DIGEST_PROBLEM}`),
    v.regex(VERIFY_DIGEST_PATTERN, `${field} ${DIGEST_PROBLEM}`),
  );

const RESUME = v.pipe(
  v.object({ id: ID, offset: whole(0, 'offset is not a byte count'), prefix: digest('prefix') }),
  v.transform((fields): ResumeMessage => ({ type: 'ferry-resume', ...fields })),
);

const START = v.pipe(
  v.object({ id: ID, offset: whole(0, 'offset is not a byte count') }),
  v.transform((fields): StartMessage => ({ type: 'ferry-start', ...fields })),
);

const DIGEST = v.pipe(
  v.object({ id: ID, sha256: digest('sha256') }),
  v.transform((fields): DigestMessage => ({ type: 'ferry-digest', ...fields })),
);

const VERIFIED = v.pipe(
  v.object({ id: ID }),
  v.transform((fields): VerifiedMessage => ({ type: 'ferry-verified', ...fields })),
);

const PROGRESS = v.pipe(
  v.object({
    index: whole(1, 'index is not a file position'),
    bytes: whole(0, 'bytes is not a byte count'),
  }),
  v.transform((fields): ProgressMessage => ({ type: 'ferry-progress', ...fields })),
);

const LISTED_FILE_PROBLEM = 'files is not a list of names and sizes';

// Each entry's two fields are handed over as present, as readWith does for a message, so a
// missing one is named like a bad one; anything else in an entry is left behind.
const LISTED_FILE = v.pipe(
  v.record(v.string(), v.unknown(), LISTED_FILE_PROBLEM),
  v.transform((entry) => ({ name: own(entry, 'name'), size: own(entry, 'size') })),
  v.object({
    name: v.pipe(v.string(LISTED_FILE_PROBLEM), v.nonEmpty(LISTED_FILE_PROBLEM)),
    size: whole(0, LISTED_FILE_PROBLEM),
  }),
);

// A list frame is within 1000 bytes, so the number of its entries is bounded already.
const LIST = v.pipe(
  v.object({
    files: v.array(LISTED_FILE, LISTED_FILE_PROBLEM),
    more: v.boolean('more is not true or false'),
  }),
  v.transform((fields): ListMessage => ({ type: 'ferry-list', ...fields })),
);

const OUTCOME = v.picklist(['declined', 'cancelled']);

/**
 * Either direction's `ferry-outcome`. It only names why the channel is about to close, so one this
 * build cannot read is ignored rather than refused (docs/protocol.md, "Named outcomes").
 */
function readOutcome(json: JsonObject): ControlReading<OutcomeMessage> {
  const read = v.safeParse(OUTCOME, own(json, 'outcome'));
  return read.success
    ? { kind: 'control', message: { type: 'ferry-outcome', outcome: read.output } }
    : { kind: 'ignored', why: 'unknown-outcome' };
}
