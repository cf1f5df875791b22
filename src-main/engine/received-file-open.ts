import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

// How the native receiver opens what it writes. Every open of a received file (its `.part`, the
// sidecar, the direct I/O handle) refuses a link at the name, so nothing is written, read or
// emptied through a link planted in the destination. Windows has no such flag: there the exclusive
// create of a `.part` and the folder checks (destination-folder.ts) are what keep links out.

// `constants` lacks O_NOFOLLOW on Windows, whatever Node's typings say.
const NO_FOLLOW = (constants.O_NOFOLLOW as number | undefined) ?? 0;

/** A new file, created here and now: fails with EEXIST when anything, a link included, has the name. */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** A file of our own that is already there (a kept `.part`), written in place. */
export const WRITE_EXISTING = constants.O_WRONLY | NO_FOLLOW;

/** A sidecar, written whole, created when missing. */
export const REPLACE_WHOLE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;

/** A sidecar, added to at its end; never created, so a lost one cannot come back headless. */
export const APPEND_EXISTING = constants.O_WRONLY | constants.O_APPEND | NO_FOLLOW;

/** A folder's index of received files, added to at its end and created when missing. */
export const APPEND_CREATE =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;

/** Reading what an earlier try kept. */
export const READ_EXISTING = constants.O_RDONLY | NO_FOLLOW;

/** The random bytes of a collision suffix (src-shared/names/collision-suffix.ts). */
export const collisionRandomBytes = (count: number): Uint8Array => randomBytes(count);

/**
 * A second handle on `path` for direct I/O (Linux: O_DIRECT), or undefined where the platform or
 * the file system has none (macOS, Windows, tmpfs), or `path` is no longer the plain file the
 * first handle opened.
 */
export async function openDirect(path: string): Promise<FileHandle | undefined> {
  if ((constants.O_DIRECT as number | undefined) === undefined) return undefined;
  try {
    return await open(path, WRITE_EXISTING | constants.O_DIRECT);
  } catch {
    return undefined;
  }
}

/** Refusing `shown` (relative to the destination), which is a link, in words a person follows. */
export function linkRefused(shown: string): Error {
  return new Error(
    `${shown} in the destination folder is a symbolic link, and Ferry does not save through links`,
  );
}

/** An open that failed because its name is a link becomes linkRefused; anything else stays. */
export function explainLink(error: unknown, shown: string): unknown {
  return (error as NodeJS.ErrnoException).code === 'ELOOP' ? linkRefused(shown) : error;
}
