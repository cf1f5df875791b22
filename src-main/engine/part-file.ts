import {
  link,
  lstat,
  mkdir,
  open,
  realpath,
  rename,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { constants } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { withCollisionSuffix } from '../../src-shared/names';
import { BatchedFileWriter } from './batched-file-writer';

const PART_SUFFIX = '.part';

/**
 * A received file while it arrives: written in order to `<name>.part` beside where it will land,
 * renamed to its final name only after its byte count checks out, and deleted otherwise. It never
 * overwrites anything: a taken name becomes `name (1).ext`, `name (2).ext`, and so on.
 */
export class PartFile {
  readonly #folder: string;
  readonly #name: string;
  readonly #partPath: string;
  readonly #handles: { buffered: FileHandle; direct: FileHandle | undefined };
  readonly #writer: BatchedFileWriter;
  #settled = false;

  private constructor(
    folder: string,
    name: string,
    partPath: string,
    handles: { buffered: FileHandle; direct: FileHandle | undefined },
  ) {
    this.#folder = folder;
    this.#name = name;
    this.#partPath = partPath;
    this.#handles = handles;
    this.#writer = new BatchedFileWriter(handles);
  }

  /**
   * Creates the staging file for `relativePath` (sanitized, `/`-separated) under `target`,
   * recreating its folders there. Refuses a folder that leads outside `target` through a link.
   */
  static async create(target: string, relativePath: string): Promise<PartFile> {
    const parts = relativePath.split('/');
    const name = parts.pop() ?? relativePath;
    const folder = join(target, ...parts);
    await mkdir(folder, { recursive: true });
    const [realTarget, realFolder] = await Promise.all([realpath(target), realpath(folder)]);
    const inside = relative(realTarget, realFolder);
    if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
      throw new Error(`${parts.join('/')} leads outside the destination folder`);
    }
    for (let n = 0; ; n += 1) {
      const staged = `${n === 0 ? name : withCollisionSuffix(name, n)}${PART_SUFFIX}`;
      const partPath = join(folder, staged);
      try {
        const buffered = await open(partPath, 'wx');
        const direct = await openDirect(partPath);
        return new PartFile(folder, name, partPath, { buffered, direct });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /** Bytes on disk so far. */
  get written(): number {
    return this.#writer.written;
  }

  /** Appends `bytes` after everything written before; resolves once they are on disk. */
  write(bytes: Uint8Array): Promise<void> {
    return this.#writer.write(bytes);
  }

  /**
   * Checks what reached the disk against `expectedBytes`, then gives the file its final name and
   * returns the path it landed at. A count that does not match throws, and the file is discarded.
   */
  async commit(expectedBytes: number | null): Promise<string> {
    await this.#writer.flush();
    if (this.#writer.failure !== undefined) throw this.#writer.failure;
    await this.#close();
    this.#settled = true;
    const onDisk = (await stat(this.#partPath)).size;
    if (onDisk !== this.#writer.written || (expectedBytes !== null && onDisk !== expectedBytes)) {
      await unlink(this.#partPath).catch(() => undefined);
      throw new Error(
        `${onDisk} bytes reached the disk where ${expectedBytes ?? this.#writer.written} were expected`,
      );
    }
    for (let n = 0; ; n += 1) {
      const finalPath = join(
        this.#folder,
        n === 0 ? this.#name : withCollisionSuffix(this.#name, n),
      );
      if (await this.#claim(finalPath)) return finalPath;
    }
  }

  /** Deletes the staging file; safe to call at any point, and more than once. */
  async discard(): Promise<void> {
    if (!this.#settled) {
      this.#settled = true;
      await this.#writer.abandon();
      await this.#close().catch(() => undefined);
    }
    await unlink(this.#partPath).catch(() => undefined);
  }

  async #close(): Promise<void> {
    const { buffered, direct } = this.#handles;
    await Promise.all([buffered.close(), direct?.close()]);
  }

  /**
   * Moves the staging file to `finalPath` unless that name is taken. A hard link fails rather than
   * replace an existing file, which a rename would do silently; file systems without hard links
   * get a check before the rename.
   */
  async #claim(finalPath: string): Promise<boolean> {
    try {
      await link(this.#partPath, finalPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (await exists(finalPath)) return false;
      await rename(this.#partPath, finalPath);
      return true;
    }
    await unlink(this.#partPath);
    return true;
  }
}

/**
 * A second handle on `path` for direct I/O (Linux: O_DIRECT), or undefined where the platform or
 * the file system has none (macOS, Windows, tmpfs).
 */
async function openDirect(path: string): Promise<FileHandle | undefined> {
  if (constants.O_DIRECT === undefined) return undefined;
  try {
    return await open(path, constants.O_WRONLY | constants.O_DIRECT);
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
