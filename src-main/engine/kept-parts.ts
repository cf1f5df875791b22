import { open, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import type { KeptFileFolder, KeptFileReader } from '../../src-shared/verify/kept-file-folder';
import { fileIdOf, PartFile } from './part-file';
import { APPEND_CREATE, CREATE_NEW, collisionRandomBytes } from './received-file-open';

/**
 * A folder of a native receiver's destination for the shared lookup of kept files
 * (src-shared/verify/kept-files.ts) and its receipts (receipts.ts): `node:fs`, files opened and
 * written without following links.
 * `relativePath` is the file being received, whose folder this is.
 */
export function diskKeptFiles(
  destination: string,
  relativePath: string,
  folder: string,
): KeptFileFolder<PartFile> {
  return {
    open: (name) => openPlainFile(join(folder, name)),
    reopen: (partName, kept) =>
      PartFile.reopen(destination, relativePath, join(folder, partName), kept),
    names: () => readdir(folder),
    remove: (name) => unlink(join(folder, name)),
    append: (name, text) => writeFile(join(folder, name), text, { flag: APPEND_CREATE }),
    async replace(name, text) {
      // Written aside under a fresh name, then renamed over: a reader sees the old or the new.
      const aside = join(folder, `${name}.${Buffer.from(collisionRandomBytes(6)).toString('hex')}`);
      await writeFile(aside, text, { flag: CREATE_NEW });
      await rename(aside, join(folder, name)).catch(async (error: unknown) => {
        await unlink(aside).catch(() => undefined);
        throw error;
      });
    },
  };
}

async function openPlainFile(path: string): Promise<KeptFileReader | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    return undefined;
  }
  const opened = handle;
  return {
    size: info.size,
    modified: info.mtimeMs,
    fileId: await fileIdOf(handle),
    async read(start, end) {
      const bytes = Buffer.allocUnsafe(end - start);
      let done = 0;
      while (done < bytes.length) {
        const { bytesRead } = await opened.read(bytes, done, bytes.length - done, start + done);
        if (bytesRead === 0) throw new Error(`${path} became shorter while it was read`);
        done += bytesRead;
      }
      return bytes;
    },
    close: () => opened.close(),
  };
}
