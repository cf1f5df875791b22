import { statfs } from 'node:fs/promises';
import type { Acceptance } from '../../src-shared/session/receive-session';
import type { SaveTarget } from '../../src-shared/session/save-target';

/** Reads how many bytes may still be written in a folder; tests put a fuller disk in its place. */
export type FreeSpaceReader = (folder: string) => Promise<number>;

/** Bytes a process without special rights may still write in `folder`'s file system. */
export async function freeBytesIn(folder: string): Promise<number> {
  const stats = await statfs(folder);
  return stats.bavail * stats.bsize;
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
  if (folder === undefined || target.freeBytes !== undefined) return target;
  return { ...target, freeBytes: () => read(folder) };
}
