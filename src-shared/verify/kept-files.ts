import { withCollisionSuffix } from '../names/collision-suffix';
import { PART_KEEP_MS, VERIFY_BLOCK_BYTES } from '../protocol/limits';
import type { ResumePoint } from '../session/save-target';
import { sha256 } from './hash-functions';
import type { KeptFileFolder, KeptFileReader } from './kept-file-folder';
import { findReceived } from './receipts';
import {
  KEPT_PART_CANDIDATES,
  opensAsSidecar,
  PART_SUFFIX,
  readSidecar,
  sameDigest,
  SIDECAR_HEADER_MAX_BYTES,
  SIDECAR_SUFFIX,
  sidecarMaxBytes,
  type FileIdentity,
} from './part-sidecar';

/** What an earlier try left of a file, checked block by block (docs/protocol.md, "Resume"). */
export type KeptFile<Part> =
  | { kind: 'part'; part: Part; point: ResumePoint }
  /** The file is already there whole, as `name` in the folder; nothing may change it. */
  | { kind: 'complete'; name: string; point: ResumePoint };

/**
 * Looks in `folder` for what an earlier try from the same sender left of `identity`, whose own
 * name there is `name`: a `.part` (`name.part`, `name (1).part`, …) whose sidecar names the same
 * file, of which the longest run of blocks that still hash to the sidecar's digests is offered and
 * the rest cut off; else a file that Ferry's own receipt says arrived here whole from that same
 * sender file and that has not changed since (receipts.ts), offered whole (the sender's digest
 * decides). Undefined when there is neither: any other file, whatever its name and size, is
 * never read, so a sender learns nothing of what else the folder holds. Nothing that cannot be
 * read counts.
 */
export async function findKeptFile<Part>(
  folder: KeptFileFolder<Part>,
  name: string,
  identity: FileIdentity,
): Promise<KeptFile<Part> | undefined> {
  for (let n = 0; n < KEPT_PART_CANDIDATES; n += 1) {
    const partName = `${n === 0 ? name : withCollisionSuffix(name, n)}${PART_SUFFIX}`;
    const recorded = await readSidecarIn(folder, partName + SIDECAR_SUFFIX, identity);
    if (recorded === undefined) continue;
    const file = await folder.open(partName).catch(() => undefined);
    if (file === undefined) continue;
    const { fileId } = file;
    const blocks = await hashOpen(file, recorded.length, (index, digest) =>
      sameDigest(digest, recorded[index]),
    );
    if (blocks === undefined) continue;
    const startAt = blocks.length * VERIFY_BLOCK_BYTES;
    const kept = { identity, blocks, startAt, ...(fileId === undefined ? {} : { hashed: fileId }) };
    const part = await folder.reopen(partName, kept).catch(() => undefined);
    if (part !== undefined) return { kind: 'part', part, point: { offset: startAt, blocks } };
  }
  const received = await findReceived(folder, identity);
  if (received === undefined) return undefined;
  const blocks = await hashOpen(received.file, Number.POSITIVE_INFINITY);
  return blocks === undefined
    ? undefined
    : { kind: 'complete', name: received.name, point: { offset: identity.size, blocks } };
}

/**
 * Deletes the kept parts in `folder` whose sidecar has not changed for PART_KEEP_MS (7 days),
 * with their sidecars. Only a sidecar that opens as Ferry's own counts, so no other file named
 * `X.part.ferry` has `X.part` deleted. Best effort: what cannot be read or deleted is left.
 */
export async function sweepKeptParts<Part>(
  folder: KeptFileFolder<Part>,
  now: number,
): Promise<void> {
  const names = await folder.names().catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith(PART_SUFFIX + SIDECAR_SUFFIX)) continue;
    const sidecar = await folder.open(name).catch(() => undefined);
    if (sidecar === undefined) continue;
    const { modified, size } = sidecar;
    const start = await sidecar
      .read(0, Math.min(size, SIDECAR_HEADER_MAX_BYTES))
      .catch(() => undefined)
      .finally(() => sidecar.close().catch(() => undefined));
    if (now - modified < PART_KEEP_MS || start === undefined) continue;
    if (!opensAsSidecar(new TextDecoder().decode(start))) continue;
    await folder.remove(name.slice(0, -SIDECAR_SUFFIX.length)).catch(() => undefined);
    await folder.remove(name).catch(() => undefined);
  }
}

async function readSidecarIn<Part>(
  folder: KeptFileFolder<Part>,
  name: string,
  identity: FileIdentity,
): Promise<Uint8Array[] | undefined> {
  const file = await folder.open(name).catch(() => undefined);
  if (file === undefined) return undefined;
  try {
    if (file.size > sidecarMaxBytes(identity)) return undefined;
    return readSidecar(new TextDecoder().decode(await file.read(0, file.size)), identity);
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/**
 * SHA-256 of each block of `file`, up to `limit` full blocks (the short last one included when
 * there is no limit), stopping before the first block `accept` refuses; undefined when it cannot
 * be read. Closes `file`.
 */
async function hashOpen(
  file: KeptFileReader,
  limit: number,
  accept: (index: number, digest: Uint8Array) => boolean = () => true,
): Promise<Uint8Array[] | undefined> {
  try {
    const blocks: Uint8Array[] = [];
    while (blocks.length < limit) {
      const start = blocks.length * VERIFY_BLOCK_BYTES;
      const end = Math.min(start + VERIFY_BLOCK_BYTES, file.size);
      // A bounded run counts full blocks only; the whole file ends with its short last block.
      if (end <= start || (Number.isFinite(limit) && end - start < VERIFY_BLOCK_BYTES)) break;
      const digest = await sha256(await file.read(start, end));
      if (!accept(blocks.length, digest)) break;
      blocks.push(digest);
      if (end - start < VERIFY_BLOCK_BYTES) break;
    }
    return blocks;
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}
