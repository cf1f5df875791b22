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
import { isAbsolute, join, relative, sep } from 'node:path';
import { withCollisionSuffix } from '../../src-shared/names';

const PART_SUFFIX = '.part';

/** Writes go to disk in batches of about this size: few system calls, little memory held. */
const WRITE_BATCH_BYTES = 1024 * 1024;

interface PendingWrite {
  bytes: Uint8Array;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * A received file while it arrives: written in order to `<name>.part` beside where it will land,
 * renamed to its final name only after its byte count checks out, and deleted otherwise. It never
 * overwrites anything: a taken name becomes `name (1).ext`, `name (2).ext`, and so on.
 */
export class PartFile {
  readonly #folder: string;
  readonly #name: string;
  readonly #partPath: string;
  readonly #handle: FileHandle;
  #written = 0;
  #pending: PendingWrite[] = [];
  #pendingBytes = 0;
  #flushing: Promise<void> | undefined;
  #failure: Error | undefined;
  #settled = false;

  private constructor(folder: string, name: string, partPath: string, handle: FileHandle) {
    this.#folder = folder;
    this.#name = name;
    this.#partPath = partPath;
    this.#handle = handle;
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
        const handle = await open(partPath, 'wx');
        return new PartFile(folder, name, partPath, handle);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /** Bytes on disk so far. */
  get written(): number {
    return this.#written;
  }

  /**
   * Appends `bytes` after everything written before; resolves once they are on disk. Chunks are
   * gathered and written a batch at a time (the rest when the file is committed): per byte, one
   * large write costs the disk path a fraction of many chunk-sized ones.
   */
  write(bytes: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#failure !== undefined) return reject(this.#failure);
      this.#pending.push({ bytes, resolve, reject });
      this.#pendingBytes += bytes.byteLength;
      if (this.#flushing === undefined && this.#pendingBytes >= WRITE_BATCH_BYTES) {
        this.#flushing = this.#flush(WRITE_BATCH_BYTES);
      }
    });
  }

  /** Writes pending batches while at least `minimum` bytes wait (0: until nothing waits). */
  async #flush(minimum: number): Promise<void> {
    while (this.#pending.length > 0 && this.#pendingBytes >= minimum) {
      const batch = this.#pending;
      this.#pending = [];
      this.#pendingBytes = 0;
      try {
        await writeAll(
          this.#handle,
          batch.map((entry) => entry.bytes),
        );
      } catch (error) {
        this.#failure = error instanceof Error ? error : new Error(String(error));
        for (const entry of [...batch, ...this.#pending]) entry.reject(this.#failure);
        this.#pending = [];
        this.#pendingBytes = 0;
        break;
      }
      for (const entry of batch) {
        this.#written += entry.bytes.byteLength;
        entry.resolve();
      }
    }
    this.#flushing = undefined;
  }

  /** Everything handed to write() is on disk (or has failed). */
  async #flushAll(): Promise<void> {
    for (;;) {
      if (this.#flushing !== undefined) await this.#flushing;
      else if (this.#pending.length === 0 || this.#failure !== undefined) return;
      else this.#flushing = this.#flush(0);
    }
  }

  /**
   * Checks what reached the disk against `expectedBytes`, then gives the file its final name and
   * returns the path it landed at. A count that does not match throws, and the file is discarded.
   */
  async commit(expectedBytes: number | null): Promise<string> {
    await this.#flushAll();
    if (this.#failure !== undefined) throw this.#failure;
    await this.#handle.close();
    this.#settled = true;
    const onDisk = (await stat(this.#partPath)).size;
    if (onDisk !== this.#written || (expectedBytes !== null && onDisk !== expectedBytes)) {
      await unlink(this.#partPath).catch(() => undefined);
      throw new Error(
        `${onDisk} bytes reached the disk where ${expectedBytes ?? this.#written} were expected`,
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
      await this.#flushing;
      for (const entry of this.#pending) entry.resolve();
      this.#pending = [];
      await this.#handle.close().catch(() => undefined);
    }
    await unlink(this.#partPath).catch(() => undefined);
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

/** Writes every byte of `chunks`, in order, in as few system calls as the kernel allows. */
async function writeAll(handle: FileHandle, chunks: Uint8Array[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest);
    rest = remainderAfter(rest, bytesWritten);
  }
}

function remainderAfter(chunks: Uint8Array[], written: number): Uint8Array[] {
  let skip = written;
  const rest: Uint8Array[] = [];
  for (const chunk of chunks) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    rest.push(skip > 0 ? chunk.subarray(skip) : chunk);
    skip = 0;
  }
  return rest;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
