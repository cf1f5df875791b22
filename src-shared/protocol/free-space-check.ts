import { formatBytes } from '../format/format-bytes';
import type { Refusal } from './refusal';

/** What a `free-space` reading found: `reserve` bytes of `bytes` must stay free. */
export interface FreeSpace {
  bytes: number;
  reserve: number;
  folder: string | undefined;
}

/** The batch as the receiver accepted it, and what a lost link already left here. */
export interface BatchNeeds {
  totalBytes: number;
  keptBytes: number;
}

/**
 * What file `index` still needs from byte `from` on, when that is more than is free
 * (docs/protocol.md, "Free space"). Before the first file the whole batch must fit, less what a
 * lost link left here; before each later file, that file must.
 */
export function shortOfSpace(
  free: FreeSpace | undefined,
  batch: BatchNeeds,
  file: { index: number; fileSize: number },
  from: number,
): number | undefined {
  if (free === undefined) return undefined;
  // After a lost link what is kept covers the first file's kept part too: count it once.
  const rest = batch.totalBytes - Math.max(batch.keptBytes, from);
  const needed = file.index === 0 ? Math.max(0, rest) : file.fileSize - from;
  return needed > free.bytes - free.reserve ? needed : undefined;
}

/**
 * The refusal of what does not fit. Locally the folder is named; the sender hears only the sizes,
 * since a path on this device is not its business.
 */
export function noSpace(needed: number, free: FreeSpace | undefined): Refusal {
  const reserve = free?.reserve ?? 0;
  const sizes =
    `this needs ${formatBytes(needed)} and ${formatBytes(free?.bytes ?? 0)} is free` +
    (reserve > 0 ? `, of which ${formatBytes(reserve)} is kept free for the system` : '');
  const where = free?.folder === undefined ? '' : ` in ${free.folder}`;
  return {
    failure: { code: 'ERR_DISK_FULL', message: `not enough free space${where}: ${sizes}` },
    reason: `the receiving device does not have enough free space: ${sizes}`,
  };
}
