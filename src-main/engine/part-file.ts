import { link, lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { collisionCandidates } from '../../src-shared/names';
import { BatchedFileWriter } from './batched-file-writer';
import { receivedFolder } from './destination-folder';
import type { StagedPart } from '../../src-shared/session/resumable-target';
import { PART_SUFFIX } from '../../src-shared/verify/part-sidecar';
import { PartSidecar, SIDECAR_SUFFIX, type FileIdentity } from './part-sidecar';
import {
  CREATE_NEW,
  WRITE_EXISTING,
  collisionRandomBytes,
  explainLink,
  openDirect,
} from './received-file-open';

interface Handles {
  buffered: FileHandle;
  direct: FileHandle | undefined;
}

/** Which file a handle holds, as its file system tells: device and inode. */
interface FileIdentityOnDisk {
  dev: bigint;
  ino: bigint;
}

/**
 * A received file while it arrives: written in order to `<name>.part` beside where it will land,
 * renamed to its final name only after its byte count (and digest, when the sender sent one)
 * checks out, and deleted otherwise. It never overwrites anything, nor writes through a link: a
 * taken name becomes `name (1).ext`, `name (2).ext`, and so on, then a random suffix
 * (src-shared/names/collision-suffix.ts). Whatever is done by name (a second handle, the size
 * check, the final link, the removal) is done only while the name still holds the file the open
 * handle holds, same device and inode: a `.part` swapped for a link or another file under the
 * receiver is never written through, published, or deleted. A resumable one keeps a sidecar of
 * its block digests (part-sidecar.ts), and may be left on disk for a later try
 * (docs/protocol.md, "Resume").
 */
export class PartFile implements StagedPart {
  readonly #folder: string;
  readonly #name: string;
  readonly #partPath: string;
  readonly #handles: Handles;
  readonly #onDisk: FileIdentityOnDisk;
  readonly #identity: FileIdentity | undefined;
  #writer: BatchedFileWriter;
  #sidecar: PartSidecar | undefined;
  #lastWrite: Promise<void> = Promise.resolve();
  #settled = false;

  private constructor(
    at: { folder: string; name: string; partPath: string; onDisk: FileIdentityOnDisk },
    handles: Handles,
    resumable: { identity: FileIdentity; sidecar: PartSidecar; startAt: number } | undefined,
  ) {
    this.#folder = at.folder;
    this.#name = at.name;
    this.#partPath = at.partPath;
    this.#onDisk = at.onDisk;
    this.#handles = handles;
    this.#identity = resumable?.identity;
    this.#sidecar = resumable?.sidecar;
    this.#writer = new BatchedFileWriter(handles, resumable?.startAt ?? 0);
  }

  /**
   * Creates the staging file for `relativePath` (sanitized, `/`-separated) under `target`,
   * recreating its folders there; with `identity`, a resumable one with its sidecar. Refuses a
   * folder on the way that is a link (destination-folder.ts).
   */
  static async create(
    target: string,
    relativePath: string,
    identity?: FileIdentity,
  ): Promise<PartFile> {
    const { folder, name } = await stagingFolder(target, relativePath);
    for (const candidate of collisionCandidates(name, collisionRandomBytes)) {
      const partPath = join(folder, `${candidate}${PART_SUFFIX}`);
      let buffered: FileHandle;
      try {
        buffered = await open(partPath, CREATE_NEW);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        continue;
      }
      const onDisk = await identityOf(buffered);
      const handles = { buffered, direct: await openDirectSame(partPath, onDisk) };
      const at = { folder, name, partPath, onDisk };
      if (identity === undefined) return new PartFile(at, handles, undefined);
      try {
        const sidecar = await PartSidecar.write(partPath + SIDECAR_SUFFIX, identity);
        return new PartFile(at, handles, { identity, sidecar, startAt: 0 });
      } catch (error) {
        await Promise.all([buffered.close(), handles.direct?.close()]);
        await unlink(partPath).catch(() => undefined);
        throw explainLink(
          error,
          besideFile(relativePath, candidate + PART_SUFFIX + SIDECAR_SUFFIX),
        );
      }
    }
    throw new Error(`no free name for ${relativePath}`);
  }

  /**
   * Opens a kept `.part` at `partPath` to go on writing after its first `startAt` bytes, which
   * were checked against `blocks`; anything after them is cut off.
   */
  static async reopen(
    target: string,
    relativePath: string,
    partPath: string,
    kept: {
      identity: FileIdentity;
      blocks: readonly Uint8Array[];
      startAt: number;
      hashed?: string;
    },
  ): Promise<PartFile> {
    const { folder, name } = await stagingFolder(target, relativePath);
    const buffered = await open(partPath, WRITE_EXISTING);
    try {
      const onDisk = await identityOf(buffered);
      // Its checked blocks are kept unread: it must be the very file that was hashed.
      const other = kept.hashed !== undefined && kept.hashed !== idText(onDisk);
      if (other || !(await holds(partPath, onDisk))) throw swapped(partPath);
      await buffered.truncate(kept.startAt);
      const sidecar = await PartSidecar.write(
        partPath + SIDECAR_SUFFIX,
        kept.identity,
        kept.blocks,
      );
      const handles = { buffered, direct: await openDirectSame(partPath, onDisk) };
      return new PartFile({ folder, name, partPath, onDisk }, handles, { ...kept, sidecar });
    } catch (error) {
      await buffered.close();
      throw error;
    }
  }

  /** Bytes on disk so far. */
  get written(): number {
    return this.#writer.written;
  }

  /** Appends `bytes` after everything written before; resolves once they are on disk. */
  write(bytes: Uint8Array): Promise<void> {
    const written = this.#writer.write(bytes);
    this.#lastWrite = written.catch(() => undefined);
    return written;
  }

  /** Notes a full block's digest in the sidecar, once every byte handed over so far is on disk. */
  recordBlock(block: number, digest: Uint8Array): void {
    this.#sidecar?.record(block, digest, this.#lastWrite);
  }

  /** Empties the file to start over from its first byte (the sender refused the resume). */
  async restart(): Promise<void> {
    await this.#writer.flush();
    await this.#sidecar?.settled();
    await this.#handles.buffered.truncate(0);
    this.#writer = new BatchedFileWriter(this.#handles, 0);
    if (this.#identity !== undefined) {
      this.#sidecar = await PartSidecar.write(this.#partPath + SIDECAR_SUFFIX, this.#identity, []);
    }
  }

  /**
   * Checks what reached the disk against `expectedBytes`, then gives the file its final name and
   * returns that name, in its folder. A count that does not match throws, and the file is
   * discarded.
   */
  async commit(expectedBytes: number | null): Promise<string> {
    await this.#writer.flush();
    if (this.#writer.failure !== undefined) throw this.#writer.failure;
    const onDisk = (await this.#handles.buffered.stat()).size;
    await this.#close();
    this.#settled = true;
    if (!(await holds(this.#partPath, this.#onDisk))) throw swapped(this.#partPath);
    if (onDisk !== this.#writer.written || (expectedBytes !== null && onDisk !== expectedBytes)) {
      await this.#unlink();
      throw new Error(
        `${onDisk} bytes reached the disk where ${expectedBytes ?? this.#writer.written} were expected`,
      );
    }
    for (const candidate of collisionCandidates(this.#name, collisionRandomBytes)) {
      const finalPath = join(this.#folder, candidate);
      if (await this.#claim(finalPath)) {
        await this.#sidecar?.settled();
        await unlink(this.#partPath + SIDECAR_SUFFIX).catch(() => undefined);
        return candidate;
      }
    }
    await this.#unlink();
    throw new Error(`no free name for ${this.#name}`);
  }

  /**
   * Deletes the staging file; safe to call at any point, and more than once. With `keep`, a
   * resumable file instead stays on disk with its sidecar, everything handed over written out.
   */
  async discard(keep = false): Promise<void> {
    if (keep && this.#sidecar !== undefined && !this.#settled) {
      this.#settled = true;
      await this.#writer.flush().catch(() => undefined);
      await this.#sidecar.settled();
      await this.#close().catch(() => undefined);
      return;
    }
    if (!this.#settled) {
      this.#settled = true;
      await this.#writer.abandon();
      await this.#close().catch(() => undefined);
    }
    await this.#unlink();
  }

  async #unlink(): Promise<void> {
    await this.#sidecar?.settled();
    // What took the `.part`'s name is not this file, and not Ferry's to delete.
    if (await holds(this.#partPath, this.#onDisk)) {
      await unlink(this.#partPath).catch(() => undefined);
    }
    await unlink(this.#partPath + SIDECAR_SUFFIX).catch(() => undefined);
  }

  async #close(): Promise<void> {
    const { buffered, direct } = this.#handles;
    await Promise.all([buffered.close(), direct?.close()]);
  }

  /**
   * Moves the staging file to `finalPath` unless that name is taken, by anything, a link included.
   * A hard link fails rather than replace what is there or write through a link, which a rename
   * would do silently; file systems without hard links get a check before the rename. Either
   * way the final name must then hold this file: a link made to whatever was swapped in at the
   * `.part`'s name is taken back.
   */
  async #claim(finalPath: string): Promise<boolean> {
    try {
      await link(this.#partPath, finalPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (await exists(finalPath)) return false;
      if (!(await holds(this.#partPath, this.#onDisk))) throw swapped(this.#partPath);
      await rename(this.#partPath, finalPath);
      if (!(await holds(finalPath, this.#onDisk))) throw swapped(this.#partPath);
      return true;
    }
    if (!(await holds(finalPath, this.#onDisk))) {
      await unlink(finalPath).catch(() => undefined);
      throw swapped(this.#partPath);
    }
    if (await holds(this.#partPath, this.#onDisk)) await unlink(this.#partPath);
    return true;
  }
}

/**
 * The folder `relativePath` lands in under `target`, created level by level, and the file's own
 * name. Refuses a folder on the way that is a link or not a folder (destination-folder.ts).
 */
export async function stagingFolder(
  target: string,
  relativePath: string,
): Promise<{ folder: string; name: string }> {
  const parts = relativePath.split('/');
  const name = parts.pop() ?? relativePath;
  return { folder: await receivedFolder(target, parts), name };
}

/** `name` in the folder of `relativePath`, as the person sees it. */
function besideFile(relativePath: string, name: string): string {
  return [...relativePath.split('/').slice(0, -1), name].join('/');
}

async function identityOf(handle: FileHandle): Promise<FileIdentityOnDisk> {
  const { dev, ino } = await handle.stat({ bigint: true });
  return { dev, ino };
}

function idText(onDisk: FileIdentityOnDisk): string {
  return `${onDisk.dev}:${onDisk.ino}`;
}

/** Which file `handle` holds, device and inode, as the lookup of kept files compares it. */
export async function fileIdOf(handle: FileHandle): Promise<string> {
  return idText(await identityOf(handle));
}

/** Whether `path` itself, not followed if a link, is the plain file `onDisk`. */
async function holds(path: string, onDisk: FileIdentityOnDisk): Promise<boolean> {
  try {
    const info = await lstat(path, { bigint: true });
    return info.isFile() && info.dev === onDisk.dev && info.ino === onDisk.ino;
  } catch {
    return false;
  }
}

/** openDirect, kept only when it opened the very file `onDisk`, not what took its name since. */
async function openDirectSame(
  path: string,
  onDisk: FileIdentityOnDisk,
): Promise<FileHandle | undefined> {
  const direct = await openDirect(path);
  if (direct === undefined) return undefined;
  const opened = await identityOf(direct).catch(() => undefined);
  if (opened?.dev === onDisk.dev && opened.ino === onDisk.ino) return direct;
  await direct.close();
  return undefined;
}

function swapped(partPath: string): Error {
  return new Error(
    `${partPath} was replaced by something else while it was received, so nothing was saved from it`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
