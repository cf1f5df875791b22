import * as v from 'valibot';
import { countOf } from '../format/count-of';
import { formatBytes } from '../format/format-bytes';
import { MAX_PATH_LENGTH, PathSchema } from '../ipc/value-schemas';
import type { PeerCheck, TransferDirection, TransferView } from '../transfer/transfer-view';

/** The most transfers a history keeps; the oldest goes when a new one comes. */
export const HISTORY_MAX_ENTRIES = 200;
/** The most file names one entry keeps; the rest are only counted. */
export const HISTORY_NAMES_PER_ENTRY = 10;

/**
 * Who was on the other end, as far as this side could tell when the transfer finished: the name
 * this device remembered it by (`device`), or only whether it was verified.
 */
export type HistoryPeer =
  { check: 'device'; name: string } | { check: Exclude<PeerCheck['kind'], 'device'> };

export interface HistoryFile {
  name: string;
  size: number;
  /** Where it landed on this device (the desktop app's receiver). */
  savedPath?: string;
}

/** One finished transfer, as this device keeps it. */
export interface HistoryEntry {
  id: string;
  direction: TransferDirection;
  /** When it finished, in milliseconds since the epoch. */
  at: number;
  fileCount: number;
  /** The files' own sizes added up. */
  totalBytes: number;
  /** The first HISTORY_NAMES_PER_ENTRY files; `fileCount` minus these are the rest. */
  files: HistoryFile[];
  peer: HistoryPeer;
  /** The folder the files were saved in (receiver). */
  folder?: string;
  /** The files went to the browser's downloads instead: as one archive, or one download each. */
  downloads?: { archive?: string };
}

type Done = Extract<TransferView, { phase: 'done' }>;

function peerOf(view: Done): HistoryPeer {
  const check = view.peer?.check;
  if (check === undefined) return { check: 'unverified' };
  if (check.kind === 'device') return { check: 'device', name: check.name };
  return { check: check.kind };
}

/** What the history keeps of a finished transfer; `at` and `id` come from the caller. */
export function entryFromDone(view: Done, at: number, id: string): HistoryEntry {
  const files = view.files.slice(0, HISTORY_NAMES_PER_ENTRY).map(({ name, size, savedPath }) => ({
    name,
    size,
    ...(savedPath === undefined ? {} : { savedPath }),
  }));
  return {
    id,
    direction: view.direction,
    at,
    fileCount: view.files.length,
    // The files' own sizes: `totalBytes` counts only what travelled, less what a resume found.
    totalBytes: view.files.reduce((sum, file) => sum + file.size, 0),
    files,
    peer: peerOf(view),
    ...(view.folder === undefined ? {} : { folder: view.folder }),
    ...(view.downloads === undefined ? {} : { downloads: { ...view.downloads } }),
  };
}

/** The history with `entry` first, the oldest entries past HISTORY_MAX_ENTRIES dropped. */
export function addEntry(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...history].slice(0, HISTORY_MAX_ENTRIES);
}

export function clearedHistory(): HistoryEntry[] {
  return [];
}

/** "Received 3 files, 12 MB from “Ana laptop” · verified": an entry without its date. */
export function entrySummary(entry: HistoryEntry): string {
  const verb = entry.direction === 'send' ? 'Sent' : 'Received';
  const amount = `${countOf(entry.fileCount, 'file')}, ${formatBytes(entry.totalBytes)}`;
  const who =
    entry.peer.check === 'device'
      ? ` ${entry.direction === 'send' ? 'to' : 'from'} “${entry.peer.name}”`
      : '';
  const verified = entry.peer.check === 'unverified' ? 'not verified' : 'verified';
  return `${verb} ${amount}${who} · ${verified}`;
}

const COUNT = v.pipe(v.number(), v.integer(), v.minValue(0));
const TEXT = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_PATH_LENGTH));

const FILE = v.object({
  name: TEXT,
  size: COUNT,
  savedPath: v.optional(PathSchema),
});

const PEER = v.variant('check', [
  v.object({ check: v.literal('device'), name: TEXT }),
  v.object({ check: v.picklist(['words', 'link', 'unverified']) }),
]);

const ENTRY = v.pipe(
  v.object({
    id: TEXT,
    direction: v.picklist(['send', 'receive']),
    at: COUNT,
    fileCount: COUNT,
    totalBytes: COUNT,
    files: v.pipe(v.array(FILE), v.maxLength(HISTORY_NAMES_PER_ENTRY)),
    // An entry whose peer does not read still happened; it counts as not verified.
    peer: v.fallback(PEER, { check: 'unverified' }),
    folder: v.optional(PathSchema),
    downloads: v.optional(v.object({ archive: v.optional(TEXT) })),
  }),
  v.transform((entry): HistoryEntry => {
    const { folder, downloads, ...rest } = entry;
    return {
      ...rest,
      fileCount: Math.max(entry.fileCount, entry.files.length),
      files: entry.files.map(({ name, size, savedPath }) => ({
        name,
        size,
        ...(savedPath === undefined ? {} : { savedPath }),
      })),
      ...(folder === undefined ? {} : { folder }),
      ...(downloads === undefined
        ? {}
        : { downloads: downloads.archive === undefined ? {} : { archive: downloads.archive } }),
    };
  }),
);

/**
 * A stored history as read back from disk or IndexedDB: entries that do not read are dropped one
 * by one, so one damaged entry costs only itself; a list that is no list reads as empty.
 */
export const storedHistorySchema = v.fallback(
  v.pipe(
    v.array(v.unknown()),
    v.transform((entries) =>
      entries.flatMap((entry) => {
        const read = v.safeParse(ENTRY, entry);
        return read.success ? [read.output] : [];
      }),
    ),
  ),
  [],
);

export function readStoredHistory(stored: unknown): HistoryEntry[] {
  return v.parse(storedHistorySchema, stored).slice(0, HISTORY_MAX_ENTRIES);
}
