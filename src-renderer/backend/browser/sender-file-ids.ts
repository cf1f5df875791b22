import { senderFileId } from '../../../src-shared/verify/sender-file-id';
import { newRoomId } from './room-id';
import type { SourceFile } from './source-files';

/** Where the page keeps its random stand-in for a device name, per origin. */
export const DEVICE_SALT_KEY = 'ferry.device-salt';

/** The part of `localStorage` used here. */
export interface SaltStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Used when the page cannot keep one: the same file is then the same only until it reloads. */
let pageSalt: string | undefined;

function localStorageOrNone(): SaltStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Reading `localStorage` throws where the person blocked site data.
    return undefined;
  }
}

/**
 * A random value that stands for this browser in file ids: a browser has no device name to give,
 * and a random one tells nobody anything. Kept in `localStorage`, so the same file sent again
 * from this browser, even after a reload, has the same id and can resume.
 */
export function deviceSalt(storage: () => SaltStorage | undefined = localStorageOrNone): string {
  try {
    const kept = storage();
    if (kept !== undefined) {
      const salt = kept.getItem(DEVICE_SALT_KEY);
      if (salt) return salt;
      const fresh = newRoomId();
      kept.setItem(DEVICE_SALT_KEY, fresh);
      return fresh;
    }
  } catch {
    // A full or refused storage leaves the page's own value.
  }
  pageSalt ??= newRoomId();
  return pageSalt;
}

/**
 * The metadata ids of the files to send, each derived from this browser's salt, the relative
 * name, size and modification time (docs/protocol.md, "Resume").
 */
export async function sentFileIds(
  files: readonly SourceFile[],
  device: string = deviceSalt(),
): Promise<string[]> {
  return Promise.all(
    files.map(({ file, path }) =>
      senderFileId({ device, path, size: file.size, modified: file.lastModified }),
    ),
  );
}
