// Files on disk for the native spec peer: sources read chunk by chunk, and received files
// staged as `<name>.part` and renamed once their byte count checks out (data-channel spec,
// per-file rule 6).
import { access, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { failure } from './failure';
import type { FileSink, PartFile } from './receive-batch';
import type { SourceFile } from './send-batch';

/** A file to send: its relative `/`-separated name, and its bytes or where they are. */
export type SpecFile = { name: string; bytes: Uint8Array } | { name: string; path: string };

export interface SavedFile {
  name: string;
  path: string;
  size: number;
}

export async function sourceFiles(files: readonly SpecFile[]): Promise<SourceFile[]> {
  return Promise.all(
    files.map(async (file): Promise<SourceFile> => {
      if ('bytes' in file) {
        const bytes = file.bytes;
        return {
          name: file.name,
          size: bytes.byteLength,
          read: async (offset, length) => bytes.subarray(offset, offset + length),
        };
      }
      const path = file.path;
      return {
        name: file.name,
        size: (await stat(path)).size,
        read: (at, n) => readAt(path, at, n),
      };
    }),
  );
}

/** Reads at most `length` bytes: a file that shrank gives fewer, which the sender treats as changed. */
async function readAt(path: string, offset: number, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const bytes = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(bytes, filled, length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** Received files land under `dir`; a name already there is a local failure, never overwritten. */
export class DiskSink implements FileSink<SavedFile> {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = resolve(dir);
  }

  async open(name: string, size: number): Promise<PartFile<SavedFile>> {
    const target = resolve(this.#dir, ...name.split('/'));
    if (!target.startsWith(this.#dir + sep))
      throw failure(`${name} would land outside ${this.#dir}`);
    const part = `${target}.part`;
    if (await exists(target)) throw failure(`${target} already exists`);
    await mkdir(dirname(target), { recursive: true });
    let handle: FileHandle | undefined = await open(part, 'wx');
    const close = async (): Promise<void> => {
      const open = handle;
      handle = undefined;
      await open?.close();
    };
    return {
      write: async (bytes) => {
        if (!handle) throw failure(`${part} is closed`);
        let done = 0;
        while (done < bytes.byteLength) {
          done += (await handle.write(bytes, done, bytes.byteLength - done)).bytesWritten;
        }
      },
      commit: async () => {
        await close();
        const written = (await stat(part)).size;
        if (written !== size) throw failure(`${part} holds ${written} bytes, not ${size}`);
        if (await exists(target)) throw failure(`${target} appeared while it was received`);
        await rename(part, target);
        return { name, path: target, size };
      },
      discard: async () => {
        await close();
        await rm(part, { force: true });
      },
    };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
