import { statfs } from 'node:fs/promises';
import type { Acceptance } from '../../src-shared/session/receive-session';
import type { FreeSpace, SaveTarget } from '../../src-shared/session/save-target';

/** Reads the free space of a folder's volume; tests put a fuller disk in its place. */
export type FreeSpaceReader = (folder: string) => Promise<FreeSpace>;

/**
 * Bytes a process without special rights may still write in `folder`'s file system, and the size
 * of that file system.
 */
export async function freeSpaceIn(folder: string): Promise<FreeSpace> {
  const stats = await statfs(folder);
  return { freeBytes: stats.bavail * stats.bsize, volumeBytes: stats.blocks * stats.bsize };
}

/**
 * The acceptance with each target it yields able to read the free space of its folder: the
 * session core decides what does not fit (docs/protocol.md, "Free space"). Translation only.
 */
export function measuringFreeSpace(acceptance: Acceptance, read: FreeSpaceReader): Acceptance {
  if (!acceptance.ask) return { ask: false, target: withFreeSpace(acceptance.target, read) };
  const { choose, withoutAsking } = acceptance;
  return {
    ...acceptance,
    choose: async (offer) => {
      const target = await choose(offer);
      return target === undefined ? undefined : withFreeSpace(target, read);
    },
    ...(withoutAsking === undefined
      ? {}
      : {
          withoutAsking: (offer) => {
            const target = withoutAsking(offer);
            return target === undefined ? undefined : withFreeSpace(target, read);
          },
        }),
  };
}

function withFreeSpace(target: SaveTarget, read: FreeSpaceReader): SaveTarget {
  const { folder } = target;
  if (folder === undefined || target.freeSpace !== undefined) return target;
  return { ...target, freeSpace: () => read(folder) };
}
