import { lstat, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SessionFailure } from '../../src-shared/session/session-failure';
import { linkRefused } from './received-file-open';

/** The absolute folder a batch lands in, created when missing. */
export async function prepareDestination(folder: string): Promise<string> {
  const destination = resolve(folder);
  try {
    await mkdir(destination, { recursive: true });
  } catch (error) {
    throw SessionFailure.withDetail('ERR_DISK', `${destination}: ${(error as Error).message}`);
  }
  return destination;
}

/**
 * The folder `folders` (sanitized names, top first) name under `destination`, created one level
 * at a time. Each level is looked at before it is used: one that is a link, even to a folder
 * inside the destination, or anything but a folder, refuses the file before anything is created
 * beneath it, so nothing lands through a link planted in the destination. The destination itself
 * is the person's choice and may be a link.
 */
export async function receivedFolder(
  destination: string,
  folders: readonly string[],
): Promise<string> {
  // The destination itself is the person's choice: made again if it went, followed if a link.
  await mkdir(destination, { recursive: true });
  let folder = destination;
  for (const [depth, name] of folders.entries()) {
    folder = join(folder, name);
    const shown = folders.slice(0, depth + 1).join('/');
    if (!(await plainFolder(folder, shown))) {
      await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
        // Someone else made it meanwhile: it is looked at again below.
        if (error.code !== 'EEXIST') throw error;
      });
      if (!(await plainFolder(folder, shown))) throw new Error(`${shown} could not be created`);
    }
  }
  return folder;
}

/** Whether `path` is a folder; false when nothing is there; throws when it is anything else. */
async function plainFolder(path: string, shown: string): Promise<boolean> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (info.isSymbolicLink()) throw linkRefused(shown);
  if (!info.isDirectory()) {
    throw new Error(`${shown} in the destination folder is already there and is not a folder`);
  }
  return true;
}
