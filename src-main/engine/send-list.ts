import type { Stats } from 'node:fs';
import { lstat, opendir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { SessionFailure } from '../../src-shared/session/session-failure';

/** One file of an outgoing batch, as it was on disk when the batch was listed. */
export interface SendFile {
  /** Absolute path on this device. */
  path: string;
  /** The relative, `/`-separated name the receiver is told; a sent folder's files keep its name. */
  name: string;
  size: number;
  mtimeMs: number;
}

/**
 * The files of a batch in send order: each path given, and every regular file inside each folder
 * given (recursively, sorted by name, folders entered only once). Empty folders carry no file,
 * and the protocol has no way to announce one.
 *
 * A path given is what the person picked and is followed if it is a link. Inside a folder no link
 * is followed, to a file or a folder, wherever it leads: a folder can link to anything on the
 * device, and the person picked the folder, not what its links reach. Each one is passed to
 * `skipped` by the name it would have been sent under.
 */
export async function listSendFiles(
  paths: readonly string[],
  skipped: (name: string) => void = () => undefined,
): Promise<SendFile[]> {
  const files: SendFile[] = [];
  const visited = new Set<string>();
  for (const given of paths) {
    const path = resolve(given);
    const info = await statOrFail(path, stat);
    if (info.isDirectory()) await collectFolder(path, basename(path), { files, visited, skipped });
    else if (info.isFile())
      files.push({ path, name: basename(path), size: info.size, mtimeMs: info.mtimeMs });
    else
      throw SessionFailure.withDetail('ERR_SOURCE_UNREADABLE', `${given} is not a file or folder`);
  }
  if (files.length === 0) {
    throw SessionFailure.withDetail(
      'ERR_SOURCE_UNREADABLE',
      'there is no file to send in what was given',
    );
  }
  return files;
}

interface Listing {
  files: SendFile[];
  visited: Set<string>;
  skipped: (name: string) => void;
}

async function collectFolder(folder: string, name: string, listing: Listing): Promise<void> {
  const { files, visited, skipped } = listing;
  const info = await statOrFail(folder, stat);
  // A folder given twice, or inside another one given, is sent once.
  const identity = `${info.dev}:${info.ino}`;
  if (visited.has(identity)) return;
  visited.add(identity);
  const entries: string[] = [];
  try {
    for await (const entry of await opendir(folder)) entries.push(entry.name);
  } catch (error) {
    throw unreadable(folder, error);
  }
  entries.sort();
  for (const entry of entries) {
    const path = join(folder, entry);
    const child = await statOrFail(path, lstat);
    const childName = `${name}/${entry}`;
    if (child.isSymbolicLink()) skipped(childName);
    else if (child.isDirectory()) await collectFolder(path, childName, listing);
    else if (child.isFile()) {
      files.push({ path, name: childName, size: child.size, mtimeMs: child.mtimeMs });
    }
  }
}

async function statOrFail(path: string, look: typeof stat | typeof lstat): Promise<Stats> {
  try {
    return await look(path);
  } catch (error) {
    throw unreadable(path, error);
  }
}

function unreadable(path: string, error: unknown): SessionFailure {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'it does not exist'
      : code === 'EACCES'
        ? 'permission denied'
        : String(code ?? error);
  return SessionFailure.withDetail('ERR_SOURCE_UNREADABLE', `${path}: ${why}`);
}
