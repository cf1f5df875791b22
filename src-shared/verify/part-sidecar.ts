import * as v from 'valibot';
import { VERIFY_BLOCK_BYTES, VERIFY_DIGEST_PATTERN } from '../protocol/limits';
import { toHex } from './file-digest';

/** A received file while it arrives is staged as `<name>.part` beside where it will land. */
export const PART_SUFFIX = '.part';

/** The sidecar of `<name>.part`, beside it (docs/protocol.md, "Resume"). */
export const SIDECAR_SUFFIX = '.ferry';

/** How many `name.part`, `name (1).part`, … are looked at for one file's kept part. */
export const KEPT_PART_CANDIDATES = 10;

/** Bytes of one digest line: 64 hex digits and a newline. */
const LINE_BYTES = 65;
/** The most a sidecar's header line takes, its newline included. */
export const SIDECAR_HEADER_MAX_BYTES = 4096;

/** Who sent the file, as the sender described it: what a later try must match to resume. */
export interface FileIdentity {
  /** The sanitized relative path it is saved under, `/`-separated. */
  name: string;
  size: number;
  /** The metadata `id`, which a Ferry sender derives from the file's path, size and mtime. */
  senderFileId: string;
}

const HEADER = v.object({
  ferry: v.literal('part-sidecar'),
  v: v.literal(1),
  name: v.string(),
  size: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  id: v.string(),
  block: v.literal(VERIFY_BLOCK_BYTES),
});

/**
 * The sidecar's text, one format for every receiver: a first JSON line naming the file's
 * identity, then one line per full block on disk with its SHA-256 in hex.
 */
export function sidecarText(identity: FileIdentity, blocks: readonly Uint8Array[] = []): string {
  const { name, size, senderFileId } = identity;
  const header = {
    ferry: 'part-sidecar',
    v: 1,
    name,
    size,
    id: senderFileId,
    block: VERIFY_BLOCK_BYTES,
  };
  return `${JSON.stringify(header)}\n${blocks.map(digestLine).join('')}`;
}

/** The line that records one block's digest. */
export function digestLine(digest: Uint8Array): string {
  return `${toHex(digest)}\n`;
}

/** The most a sidecar for `identity` can hold; anything longer is not read. */
export function sidecarMaxBytes(identity: FileIdentity): number {
  return SIDECAR_HEADER_MAX_BYTES + Math.floor(identity.size / VERIFY_BLOCK_BYTES) * LINE_BYTES;
}

/**
 * The block digests a sidecar's `text` records for `identity`, or undefined when it does not read
 * with the schema or describes another file. Nothing in it is trusted: its digests only say which
 * blocks of the `.part` to hash again before anything is offered for resume.
 */
export function readSidecar(text: string, identity: FileIdentity): Uint8Array[] | undefined {
  const [first, ...lines] = text.split('\n');
  let parsed: unknown;
  try {
    parsed = JSON.parse(first);
  } catch {
    return undefined;
  }
  const read = v.safeParse(HEADER, parsed);
  if (!read.success) return undefined;
  const { name, size, id } = read.output;
  if (name !== identity.name || size !== identity.size || id !== identity.senderFileId) {
    return undefined;
  }
  const digests: Uint8Array[] = [];
  // A line cut short by a crash ends the list; so does anything that is not a digest.
  for (const line of lines.slice(0, Math.floor(identity.size / VERIFY_BLOCK_BYTES))) {
    if (!VERIFY_DIGEST_PATTERN.test(line)) break;
    digests.push(fromHex(line));
  }
  return digests;
}

/**
 * Whether `start`, the first bytes of a file, opens as a sidecar of Ferry's (a header line that
 * reads with the schema), whatever file it describes: what the sweep of old kept parts asks
 * before it deletes the `.part` beside one.
 */
export function opensAsSidecar(start: string): boolean {
  const end = start.indexOf('\n');
  if (end < 0) return false;
  try {
    return v.safeParse(HEADER, JSON.parse(start.slice(0, end))).success;
  } catch {
    return false;
  }
}

export function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function sameDigest(a: Uint8Array, b: Uint8Array | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((byte, i) => byte === b[i]);
}
