import {
  MAX_COLLISION_SUFFIX,
  withCollisionSuffix,
} from '../../../src-shared/names/collision-suffix';
import { VERIFY_BLOCK_BYTES } from '../../../src-shared/protocol/limits';
import type { StagedPart } from '../../../src-shared/session/resumable-target';
import {
  PART_SUFFIX,
  SIDECAR_SUFFIX,
  sidecarText,
  type FileIdentity,
} from '../../../src-shared/verify/part-sidecar';
import {
  freeName,
  removeQuietly,
  taken,
  writeText,
  type Folder,
  type FolderFile,
  type FolderWritable,
} from './folder-access';

/**
 * A received file while it arrives in a chosen folder: `<name>.part` beside where it will land,
 * moved to its final name only once it checks out, never over an existing file (a taken name
 * becomes `name (1).ext`). A resumable one keeps a sidecar `<name>.part.ferry` of its block
 * digests, in the native receiver's format (src-shared/verify/part-sidecar.ts).
 *
 * The browser stages a writable stream's bytes in a swap file and puts them in the `.part` only
 * when the stream is closed; so what arrived is kept for a later try when the transfer ends with
 * the page still open (a lost link, a cancel), and the sidecar, written then, lists exactly the
 * blocks that reached the `.part`. A closed or crashed tab keeps nothing.
 */
export class FolderPart implements StagedPart {
  readonly #folder: Folder;
  readonly #name: string;
  readonly #file: FolderFile;
  readonly #writable: FolderWritable;
  readonly #identity: FileIdentity | undefined;
  /** Digests of the full blocks handed over so far, in order, from the first. */
  #blocks: Uint8Array[];
  #written: number;
  #lastWrite: Promise<void> = Promise.resolve();
  #failure: unknown;
  #settled = false;

  private constructor(
    at: { folder: Folder; name: string; file: FolderFile; writable: FolderWritable },
    resumable: { identity: FileIdentity; blocks: Uint8Array[]; startAt: number } | undefined,
  ) {
    this.#folder = at.folder;
    this.#name = at.name;
    this.#file = at.file;
    this.#writable = at.writable;
    this.#identity = resumable?.identity;
    this.#blocks = resumable?.blocks ?? [];
    this.#written = resumable?.startAt ?? 0;
  }

  /** Creates an empty `.part` for `name` in `folder`; with `identity`, a resumable one. */
  static async create(folder: Folder, name: string, identity?: FileIdentity): Promise<FolderPart> {
    const partName = await freeName(folder, name, PART_SUFFIX);
    const file = await folder.getFileHandle(partName, { create: true });
    const writable = await file.createWritable();
    const at = { folder, name, file, writable };
    if (identity === undefined) return new FolderPart(at, undefined);
    // A sidecar from the start lets a later batch sweep a `.part` that a closed tab left empty.
    await writeText(folder, partName + SIDECAR_SUFFIX, sidecarText(identity));
    return new FolderPart(at, { identity, blocks: [], startAt: 0 });
  }

  /**
   * Opens the kept `.part` `file` to go on writing after its first `startAt` bytes, which were
   * checked against `blocks`; anything after them is cut off.
   */
  static async reopen(
    folder: Folder,
    name: string,
    file: FolderFile,
    kept: { identity: FileIdentity; blocks: Uint8Array[]; startAt: number },
  ): Promise<FolderPart> {
    const writable = await file.createWritable({ keepExistingData: true });
    try {
      await writable.truncate(kept.startAt);
      await writable.seek(kept.startAt);
    } catch (error) {
      await writable.abort().catch(() => undefined);
      throw error;
    }
    return new FolderPart({ folder, name, file, writable }, { ...kept, blocks: [...kept.blocks] });
  }

  /** Appends `bytes` after everything written before; resolves once the browser took them. */
  write(bytes: Uint8Array): Promise<void> {
    const written = this.#writable.write(bytes as Uint8Array<ArrayBuffer>);
    this.#written += bytes.byteLength;
    this.#lastWrite = written.catch((error: unknown) => {
      this.#failure ??= error;
    });
    return written;
  }

  /** Notes a full block's digest; blocks are kept in order only, so a gap ends the list. */
  recordBlock(block: number, digest: Uint8Array): void {
    if (this.#identity !== undefined && block === this.#blocks.length) this.#blocks.push(digest);
  }

  /** Empties the file to start over from its first byte (the sender refused the resume). */
  async restart(): Promise<void> {
    await this.#lastWrite;
    await this.#writable.truncate(0);
    await this.#writable.seek(0);
    this.#written = 0;
    this.#blocks = [];
    if (this.#identity !== undefined) {
      await writeText(this.#folder, this.#file.name + SIDECAR_SUFFIX, sidecarText(this.#identity));
    }
  }

  /**
   * Puts every byte in the `.part`, checks its size against `expectedBytes`, then moves it to the
   * first free name of `name`, `name (1).ext`, … and returns that name. Throws, leaving the `.part`
   * for `discard`, when a write failed or the size does not match.
   */
  async commit(expectedBytes: number | null): Promise<string> {
    await this.#lastWrite;
    if (this.#failure !== undefined) throw this.#failure;
    this.#settled = true;
    await this.#writable.close();
    const onDisk = (await this.#file.getFile()).size;
    if (onDisk !== this.#written || (expectedBytes !== null && onDisk !== expectedBytes)) {
      throw new Error(
        `${onDisk} bytes reached the disk where ${expectedBytes ?? this.#written} were expected`,
      );
    }
    const sidecar = this.#file.name + SIDECAR_SUFFIX;
    const finalName = await this.#claim();
    if (this.#identity !== undefined) await removeQuietly(this.#folder, sidecar);
    return finalName;
  }

  /**
   * Deletes the `.part` and its sidecar; safe to call at any point, and more than once. With
   * `keep`, a resumable file instead stays with its sidecar, everything handed over written out.
   */
  async discard(keep = false): Promise<void> {
    const partName = this.#file.name;
    if (!this.#settled) {
      this.#settled = true;
      if (keep && this.#identity !== undefined && (await this.#keep())) return;
      await this.#writable.abort().catch(() => undefined);
    }
    await removeQuietly(this.#folder, partName);
    await removeQuietly(this.#folder, partName + SIDECAR_SUFFIX);
  }

  /** Puts what arrived in the `.part` and lists its blocks in the sidecar; false when it cannot. */
  async #keep(): Promise<boolean> {
    const identity = this.#identity;
    if (identity === undefined) return false;
    await this.#lastWrite;
    try {
      await this.#writable.close();
    } catch {
      return false;
    }
    // Only blocks wholly written are listed; the sidecar's digests are checked again anyway.
    const blocks = this.#blocks.slice(0, Math.floor(this.#written / VERIFY_BLOCK_BYTES));
    const sidecar = this.#file.name + SIDECAR_SUFFIX;
    await writeText(this.#folder, sidecar, sidecarText(identity, blocks)).catch(() => undefined);
    return true;
  }

  /**
   * Moves the `.part` to the first free final name. A move replaces a file of the same name, so
   * each name is checked just before; a browser without `move` copies and deletes instead.
   */
  async #claim(): Promise<string> {
    for (let n = 0; n <= MAX_COLLISION_SUFFIX; n += 1) {
      const candidate = n === 0 ? this.#name : withCollisionSuffix(this.#name, n);
      if (await taken(this.#folder, candidate)) continue;
      if (typeof this.#file.move === 'function') await this.#file.move(candidate);
      else await this.#copyTo(candidate);
      return candidate;
    }
    throw new Error(`no free name for ${this.#name}`);
  }

  async #copyTo(name: string): Promise<void> {
    const partName = this.#file.name;
    const contents = await this.#file.getFile();
    const target = await this.#folder.getFileHandle(name, { create: true });
    const writable = await target.createWritable();
    try {
      for (let at = 0; at < contents.size; at += VERIFY_BLOCK_BYTES) {
        const end = Math.min(at + VERIFY_BLOCK_BYTES, contents.size);
        await writable.write(new Uint8Array(await contents.slice(at, end).arrayBuffer()));
      }
      await writable.close();
    } catch (error) {
      await writable.abort().catch(() => undefined);
      await removeQuietly(this.#folder, name);
      throw error;
    }
    await removeQuietly(this.#folder, partName);
  }
}
