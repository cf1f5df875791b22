import { lstat, open, readdir, unlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { withCollisionSuffix } from '../../src-shared/names';
import { PART_KEEP_MS, VERIFY_BLOCK_BYTES } from '../../src-shared/protocol/limits';
import type { ResumePoint } from '../../src-shared/session/save-target';
import { sha256 } from '../../src-shared/verify/file-digest';
import {
  KEPT_PART_CANDIDATES,
  PART_SUFFIX,
  sameDigest,
} from '../../src-shared/verify/part-sidecar';
import { PartFile, stagingFolder } from './part-file';
import { PartSidecar, SIDECAR_SUFFIX, type FileIdentity } from './part-sidecar';

/** What an earlier try left of a file, checked block by block (docs/protocol.md, "Resume"). */
export type KeptFile =
  | { kind: 'part'; part: PartFile; point: ResumePoint }
  /** The file is already there whole, under its final name; nothing may change it. */
  | { kind: 'complete'; path: string; point: ResumePoint };

/**
 * Looks under `target` for what an earlier try from the same sender left of `identity`: a
 * `.part` whose sidecar names the same file (the longest run of blocks that still hash to the
 * sidecar's digests is offered, the rest cut off), else a finished file of the same name and
 * size (offered whole; the sender's digest decides). Undefined when there is neither.
 */
export async function findKeptFile(
  target: string,
  identity: FileIdentity,
): Promise<KeptFile | undefined> {
  const { folder, name } = await stagingFolder(target, identity.name);
  for (let n = 0; n < KEPT_PART_CANDIDATES; n += 1) {
    const partPath = join(folder, `${n === 0 ? name : withCollisionSuffix(name, n)}${PART_SUFFIX}`);
    const recorded = await PartSidecar.read(partPath + SIDECAR_SUFFIX, identity);
    if (recorded === undefined) continue;
    const blocks = await matchingBlocks(partPath, recorded);
    if (blocks === undefined) continue;
    const startAt = blocks.length * VERIFY_BLOCK_BYTES;
    const part = await PartFile.reopen(target, identity.name, partPath, {
      identity,
      blocks,
      startAt,
    });
    return { kind: 'part', part, point: { offset: startAt, blocks } };
  }
  const finalPath = join(folder, name);
  const info = await lstat(finalPath).catch(() => undefined);
  if (info?.isFile() !== true || info.size !== identity.size || info.size === 0) return undefined;
  const blocks = await hashBlocks(finalPath, Number.POSITIVE_INFINITY);
  return blocks === undefined
    ? undefined
    : { kind: 'complete', path: finalPath, point: { offset: identity.size, blocks } };
}

/**
 * The leading blocks of the `.part` at `path` that hash to `recorded`, in order; undefined when
 * it is not a plain file. A block that does not match (a flipped byte, a torn write) ends the run.
 */
async function matchingBlocks(
  path: string,
  recorded: readonly Uint8Array[],
): Promise<Uint8Array[] | undefined> {
  const hashed = await hashBlocks(path, recorded.length, (index, digest) =>
    sameDigest(digest, recorded[index]),
  );
  return hashed;
}

/**
 * SHA-256 of each block of the plain file at `path`, up to `limit` full blocks (the short last
 * one included when there is no limit), stopping before the first block `accept` refuses.
 */
async function hashBlocks(
  path: string,
  limit: number,
  accept: (index: number, digest: Uint8Array) => boolean = () => true,
): Promise<Uint8Array[] | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.allocUnsafe(VERIFY_BLOCK_BYTES);
    const blocks: Uint8Array[] = [];
    while (blocks.length < limit) {
      const { bytesRead } = await handle.read(
        buffer,
        0,
        VERIFY_BLOCK_BYTES,
        blocks.length * VERIFY_BLOCK_BYTES,
      );
      // A bounded run counts full blocks only; the whole file ends with its short last block.
      if (bytesRead === 0 || (Number.isFinite(limit) && bytesRead < VERIFY_BLOCK_BYTES)) break;
      const digest = await sha256(buffer.subarray(0, bytesRead));
      if (!accept(blocks.length, digest)) break;
      blocks.push(digest);
      if (bytesRead < VERIFY_BLOCK_BYTES) break;
    }
    return blocks;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Deletes the kept parts in `folder` whose sidecar has not changed for PART_KEEP_MS (7 days),
 * with their sidecars. Best effort: what cannot be read or deleted is left.
 */
export async function sweepKeptParts(folder: string, now: number): Promise<void> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.endsWith(PART_SUFFIX + SIDECAR_SUFFIX)) continue;
    const sidecar = join(folder, entry);
    const info = await lstat(sidecar).catch(() => undefined);
    if (info?.isFile() !== true || now - info.mtimeMs < PART_KEEP_MS) continue;
    await unlink(sidecar.slice(0, -SIDECAR_SUFFIX.length)).catch(() => undefined);
    await unlink(sidecar).catch(() => undefined);
  }
}
