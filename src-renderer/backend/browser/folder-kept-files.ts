import { withCollisionSuffix } from '../../../src-shared/names/collision-suffix';
import { PART_KEEP_MS, VERIFY_BLOCK_BYTES } from '../../../src-shared/protocol/limits';
import type { ResumePoint } from '../../../src-shared/session/save-target';
import {
  KEPT_PART_CANDIDATES,
  PART_SUFFIX,
  readSidecar,
  sameDigest,
  SIDECAR_SUFFIX,
  sidecarMaxBytes,
  type FileIdentity,
} from '../../../src-shared/verify/part-sidecar';
import { fileIn, hashBlocks, removeQuietly, type Folder } from './folder-access';
import { FolderPart } from './folder-part';

/** What an earlier try left of a file in a chosen folder, checked block by block. */
export type KeptFile =
  | { kind: 'part'; part: FolderPart; point: ResumePoint }
  /** The file is already there whole, under its final name; nothing may change it. */
  | { kind: 'complete'; name: string; point: ResumePoint };

/**
 * Looks in `folder` for what an earlier try from the same sender left of `identity`, whose own
 * name there is `name` (docs/protocol.md, "Resume", as the native receiver does): a `.part` whose
 * sidecar names the same file (the longest run of blocks that still hash to the sidecar's digests
 * is offered, the rest cut off), else a finished file of the same name and size (offered whole;
 * the sender's digest decides). Undefined when there is neither.
 */
export async function findKeptFile(
  folder: Folder,
  name: string,
  identity: FileIdentity,
): Promise<KeptFile | undefined> {
  for (let n = 0; n < KEPT_PART_CANDIDATES; n += 1) {
    const partName = `${n === 0 ? name : withCollisionSuffix(name, n)}${PART_SUFFIX}`;
    const recorded = await readSidecarIn(folder, partName + SIDECAR_SUFFIX, identity);
    if (recorded === undefined) continue;
    const file = await fileIn(folder, partName);
    if (file === undefined) continue;
    const blocks = await hashBlocks(await file.getFile(), recorded.length, (index, digest) =>
      sameDigest(digest, recorded[index]),
    ).catch(() => undefined);
    if (blocks === undefined) continue;
    const startAt = blocks.length * VERIFY_BLOCK_BYTES;
    const part = await FolderPart.reopen(folder, name, file, { identity, blocks, startAt }).catch(
      () => undefined,
    );
    if (part !== undefined) return { kind: 'part', part, point: { offset: startAt, blocks } };
  }
  const finished = await fileIn(folder, name);
  const contents = await finished?.getFile().catch(() => undefined);
  if (contents === undefined || contents.size !== identity.size || contents.size === 0) {
    return undefined;
  }
  const blocks = await hashBlocks(contents, Number.POSITIVE_INFINITY).catch(() => undefined);
  return blocks === undefined
    ? undefined
    : { kind: 'complete', name, point: { offset: identity.size, blocks } };
}

async function readSidecarIn(
  folder: Folder,
  name: string,
  identity: FileIdentity,
): Promise<Uint8Array[] | undefined> {
  try {
    const contents = await (await fileIn(folder, name))?.getFile();
    if (contents === undefined || contents.size > sidecarMaxBytes(identity)) return undefined;
    return readSidecar(await contents.text(), identity);
  } catch {
    return undefined;
  }
}

/**
 * Deletes the kept parts in `folder` whose sidecar has not changed for PART_KEEP_MS (7 days),
 * with their sidecars. Best effort: what cannot be read or deleted is left.
 */
export async function sweepKeptParts(folder: Folder, now: number): Promise<void> {
  const names: string[] = [];
  try {
    for await (const name of folder.keys()) names.push(name);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith(PART_SUFFIX + SIDECAR_SUFFIX)) continue;
    const contents = await (await fileIn(folder, name))?.getFile().catch(() => undefined);
    if (contents === undefined || now - contents.lastModified < PART_KEEP_MS) continue;
    await removeQuietly(folder, name.slice(0, -SIDECAR_SUFFIX.length));
    await removeQuietly(folder, name);
  }
}
