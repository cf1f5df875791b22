import * as v from 'valibot';
import { PEER_PROGRAM_WORDS, type PeerProgram } from '../devices/peer-program';
import { countOf } from '../format/count-of';
import { formatBytes } from '../format/format-bytes';
import type { RememberedDevice } from '../devices/remembered-devices';
import { FingerprintSchema, MAX_PATH_LENGTH, PathSchema } from '../ipc/value-schemas';
import type { ErrorCode } from '../protocol/error-codes';
import { TEXT_MESSAGE_MAX_BYTES } from '../protocol/limits';
import { batchWords } from '../transfer/text-message-words';
import type {
  DeliveredFileView,
  PeerCheck,
  PeerSummary,
  TransferDirection,
  TransferView,
} from '../transfer/transfer-view';

/** The most transfers a history keeps; the oldest goes when a new one comes. */
export const HISTORY_MAX_ENTRIES = 200;
/** The most file names one entry keeps; the rest are only counted. */
export const HISTORY_NAMES_PER_ENTRY = 10;

/**
 * Who was on the other end, as far as this side could tell when the transfer ended: the name
 * this device remembered it by (`device`), or whether it was verified; beside it the name the
 * peer gave itself and the kind of program it is, as far as it told them; and its certificate's
 * fingerprint, unless a failed check disproved it, so a device remembered can be sent to again.
 */
export type HistoryPeer = (
  { check: 'device'; name: string } | { check: Exclude<PeerCheck['kind'], 'device'> }
) & { announcedName?: string; program?: PeerProgram; fingerprint?: string };

/** How a batch that did not arrive whole ended (an entry without one arrived whole). */
export type HistoryOutcome = 'declined' | 'cancelled' | 'failed';

const DECLINES: ReadonlySet<ErrorCode> = new Set(['ERR_DECLINED', 'ERR_PEER_DECLINED']);
const CANCELS: ReadonlySet<ErrorCode> = new Set(['ERR_CANCELLED', 'ERR_PEER_CANCELLED']);

/** Failures that say the other end was not who the check said: no entry calls it verified. */
const DISPROVED: ReadonlySet<ErrorCode> = new Set([
  'ERR_SAS_MISMATCH',
  'ERR_NOT_CONFIRMED',
  'ERR_LINK_MISMATCH',
  'ERR_UNEXPECTED_DEVICE',
  'ERR_TWO_FINGERPRINTS',
]);

/** A decline or a cancel by either person, else a failure. */
export function outcomeOf(code: ErrorCode): HistoryOutcome {
  if (DECLINES.has(code)) return 'declined';
  return CANCELS.has(code) ? 'cancelled' : 'failed';
}

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
  /**
   * Absent when the whole batch arrived. Otherwise `fileCount`, `totalBytes` and `files` are
   * what arrived whole before it ended, and `offered` the batch as it was offered.
   */
  outcome?: HistoryOutcome;
  offered?: { fileCount: number; totalBytes: number };
  /** This side cannot tell what arrived (a sender whose receiver confirms no file). */
  arrivalUnknown?: true;
  /** The folder the files were saved in (receiver). */
  folder?: string;
  /** The files went to the browser's downloads instead: as one archive, or one download each. */
  downloads?: { archive?: string };
  /**
   * The batch was a text message: the text itself, kept until the history is cleared, and named
   * as a text rather than as its file (docs/protocol.md, "Text messages").
   */
  text?: string;
}

type Done = Extract<TransferView, { phase: 'done' }>;
type Failed = Extract<TransferView, { phase: 'failed' }>;

/** What the app core saw of a batch before it ended: its size, and the check shown meanwhile. */
export interface BatchSeen {
  fileCount: number;
  totalBytes: number;
  check?: PeerCheck;
}

/** `disproved`: the check failed, so the peer counts as not verified whatever was shown. */
function peerOf(peer: PeerSummary | undefined, shown?: PeerCheck, disproved = false): HistoryPeer {
  const check = disproved ? undefined : (peer?.check ?? shown);
  const told = {
    ...(peer === undefined || disproved ? {} : { fingerprint: peer.fingerprint }),
    ...(peer?.announcedName === undefined ? {} : { announcedName: peer.announcedName }),
    ...(peer?.program === undefined ? {} : { program: peer.program }),
  };
  if (check === undefined) return { check: 'unverified', ...told };
  if (check.kind === 'device') return { check: 'device', name: check.name, ...told };
  return { check: check.kind, ...told };
}

/** The files as an entry keeps them: the first HISTORY_NAMES_PER_ENTRY, their own sizes added. */
function arrivedPart(files: readonly DeliveredFileView[]) {
  return {
    fileCount: files.length,
    // The files' own sizes: a view's `totalBytes` counts only what travelled, less what a resume found.
    totalBytes: files.reduce((sum, file) => sum + file.size, 0),
    files: files.slice(0, HISTORY_NAMES_PER_ENTRY).map(({ name, size, savedPath }) => ({
      name,
      size,
      ...(savedPath === undefined ? {} : { savedPath }),
    })),
  };
}

/**
 * What the history keeps of a batch that ended before it arrived whole: how it ended, what
 * arrived whole before that, the batch as offered, and who was on the other end.
 */
export function entryFromFailed(
  view: Failed,
  batch: BatchSeen,
  at: number,
  id: string,
): HistoryEntry {
  return {
    id,
    direction: view.direction,
    at,
    ...arrivedPart(view.arrived ?? []),
    peer: peerOf(view.peer, batch.check, DISPROVED.has(view.code)),
    outcome: outcomeOf(view.code),
    offered: { fileCount: batch.fileCount, totalBytes: batch.totalBytes },
    ...(view.arrived === undefined ? { arrivalUnknown: true as const } : {}),
  };
}

/** What the history keeps of a finished transfer; `at` and `id` come from the caller. */
export function entryFromDone(view: Done, at: number, id: string): HistoryEntry {
  return {
    id,
    direction: view.direction,
    at,
    ...arrivedPart(view.files),
    peer: peerOf(view.peer),
    ...(view.folder === undefined ? {} : { folder: view.folder }),
    ...(view.downloads === undefined ? {} : { downloads: { ...view.downloads } }),
    ...(view.text === undefined ? {} : { text: view.text }),
  };
}

/**
 * The device on the other end of `entry`, when this device remembers it now, under the name it
 * has now: the one "Send again to this device" sends to.
 */
export function rememberedPeerOf(
  entry: HistoryEntry,
  remembered: readonly RememberedDevice[],
): RememberedDevice | undefined {
  const { fingerprint } = entry.peer;
  return fingerprint === undefined
    ? undefined
    : remembered.find((device) => device.fingerprint === fingerprint);
}

/** The history with `entry` first, the oldest entries past HISTORY_MAX_ENTRIES dropped. */
export function addEntry(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...history].slice(0, HISTORY_MAX_ENTRIES);
}

export function clearedHistory(): HistoryEntry[] {
  return [];
}

/**
 * " from “Ana laptop”": the remembered name, else the name it gave itself, else the kind of
 * program it is; nothing when this side learnt none of them.
 */
function whoOf(entry: HistoryEntry): string {
  const { peer } = entry;
  const name = peer.check === 'device' ? peer.name : peer.announcedName;
  const who =
    name !== undefined
      ? `“${name}”`
      : peer.program === undefined
        ? undefined
        : PEER_PROGRAM_WORDS[peer.program];
  if (who === undefined) return '';
  return ` ${entry.direction === 'send' ? 'to' : 'from'} ${who}`;
}

const OUTCOME_WORDS: Record<HistoryOutcome, string> = {
  declined: 'Declined',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** "1 of 3 files arrived": what an entry with an outcome got across. */
function arrivedLine(entry: HistoryEntry, offered: number): string {
  if (entry.arrivalUnknown === true) return 'what arrived is not known';
  if (entry.fileCount === 0) return 'none arrived';
  return `${entry.fileCount.toLocaleString('en-US')} of ${countOf(offered, 'file')} arrived`;
}

/**
 * "Received 3 files, 12 MB from “Ana laptop” · verified", or for a batch that did not arrive
 * whole "Cancelled — receiving 3 files, 12 MB from the command line · 1 of 3 files arrived ·
 * not verified": an entry without its date.
 */
export function entrySummary(entry: HistoryEntry): string {
  const verified = entry.peer.check === 'unverified' ? 'not verified' : 'verified';
  const who = whoOf(entry);
  const { outcome, offered } = entry;
  if (outcome === undefined || offered === undefined) {
    const verb = entry.direction === 'send' ? 'Sent' : 'Received';
    const amount = batchWords(entry);
    return `${verb} ${amount}${who} · ${verified}`;
  }
  const doing = entry.direction === 'send' ? 'sending' : 'receiving';
  const amount = `${countOf(offered.fileCount, 'file')}, ${formatBytes(offered.totalBytes)}`;
  const arrived = arrivedLine(entry, offered.fileCount);
  return `${OUTCOME_WORDS[outcome]} — ${doing} ${amount}${who} · ${arrived} · ${verified}`;
}

const COUNT = v.pipe(v.number(), v.integer(), v.minValue(0));
const TEXT = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_PATH_LENGTH));

const FILE = v.object({
  name: TEXT,
  size: COUNT,
  savedPath: v.optional(PathSchema),
});

const TOLD = {
  announcedName: v.optional(TEXT),
  program: v.optional(v.picklist(['desktop', 'command-line', 'browser'])),
  fingerprint: v.optional(FingerprintSchema),
};

const PEER = v.variant('check', [
  v.object({ check: v.literal('device'), name: TEXT, ...TOLD }),
  v.object({ check: v.picklist(['words', 'link', 'unverified']), ...TOLD }),
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
    outcome: v.optional(v.picklist(['declined', 'cancelled', 'failed'])),
    offered: v.optional(v.object({ fileCount: COUNT, totalBytes: COUNT })),
    arrivalUnknown: v.optional(v.literal(true)),
    folder: v.optional(PathSchema),
    downloads: v.optional(v.object({ archive: v.optional(TEXT) })),
    text: v.optional(v.pipe(v.string(), v.minLength(1), v.maxBytes(TEXT_MESSAGE_MAX_BYTES))),
  }),
  v.transform((entry): HistoryEntry => {
    const { folder, downloads, outcome, offered, arrivalUnknown, peer, text, ...rest } = entry;
    const { announcedName, program, ...check } = peer;
    return {
      ...rest,
      peer: {
        ...check,
        ...(announcedName === undefined ? {} : { announcedName }),
        ...(program === undefined ? {} : { program }),
      },
      // An entry with an outcome says what was offered too; without it, it reads as arrived whole.
      ...(outcome === undefined || offered === undefined
        ? {}
        : { outcome, offered, ...(arrivalUnknown === true ? { arrivalUnknown } : {}) }),
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
      ...(text === undefined ? {} : { text }),
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
