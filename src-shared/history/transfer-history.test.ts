import { describe, expect, it } from 'vitest';
import type { TransferView } from '../transfer/transfer-view';
import {
  addEntry,
  clearedHistory,
  entryFromDone,
  entryFromFailed,
  entrySummary,
  outcomeOf,
  HISTORY_MAX_ENTRIES,
  HISTORY_NAMES_PER_ENTRY,
  readStoredHistory,
  rememberedPeerOf,
  type HistoryEntry,
} from './transfer-history';

type Done = Extract<TransferView, { phase: 'done' }>;

const FINGERPRINT = `sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`;
const MB = 1024 * 1024;

const received: Done = {
  phase: 'done',
  direction: 'receive',
  files: [
    { name: 'photos/a.jpg', size: 4 * MB, savedPath: '/home/ana/Downloads/photos/a.jpg' },
    { name: 'photos/b.jpg', size: 4 * MB, savedPath: '/home/ana/Downloads/photos/b.jpg' },
    { name: 'notes.txt', size: 4 * MB, savedPath: '/home/ana/Downloads/notes.txt' },
  ],
  // A resume found part of it already there: less travelled than the files hold.
  totalBytes: 5 * MB,
  folder: '/home/ana/Downloads',
  verified: true,
  peer: {
    fingerprint: FINGERPRINT,
    check: { kind: 'device', name: 'Ana laptop', fingerprint: FINGERPRINT, words: 'a b c' },
  },
};

const entry = (id: string, at = 1): HistoryEntry => ({
  id,
  direction: 'send',
  at,
  fileCount: 1,
  totalBytes: 10,
  files: [{ name: `${id}.txt`, size: 10 }],
  peer: { check: 'words' },
});

describe('an entry of the history', () => {
  it('keeps what a person asks of a finished receive: what, how much, from whom, where', () => {
    const kept = entryFromDone(received, 1_700_000_000_000, 'one');
    expect(kept).toEqual({
      id: 'one',
      direction: 'receive',
      at: 1_700_000_000_000,
      fileCount: 3,
      totalBytes: 12 * MB,
      files: received.files.map(({ name, size, savedPath }) => ({ name, size, savedPath })),
      // Its fingerprint too, so it can be sent to again while it is remembered.
      peer: { check: 'device', name: 'Ana laptop', fingerprint: FINGERPRINT },
      folder: '/home/ana/Downloads',
    });
    expect(entrySummary(kept)).toBe('Received 3 files, 12.6 MB from “Ana laptop” · verified');
  });

  it('says whether a device it does not remember was verified, and where a browser saved', () => {
    const words = entryFromDone(
      { ...received, folder: undefined, downloads: { archive: 'ferry.zip' }, peer: undefined },
      2,
      'two',
    );
    expect(words).toMatchObject({
      peer: { check: 'unverified' },
      downloads: { archive: 'ferry.zip' },
    });
    expect(words).not.toHaveProperty('folder');
    expect(entrySummary(words)).toBe('Received 3 files, 12.6 MB · not verified');

    const sent = entryFromDone(
      {
        phase: 'done',
        direction: 'send',
        files: [{ name: 'report.pdf', size: 2048 }],
        totalBytes: 2048,
        peer: { fingerprint: FINGERPRINT, check: { kind: 'link' } },
      },
      3,
      'three',
    );
    expect(entrySummary(sent)).toBe('Sent 1 file, 2.0 kB · verified');
  });

  it('keeps a text message as its text, named as a text, until the history is cleared', () => {
    const text = 'Meet at the gate ✓';
    const kept = entryFromDone(
      {
        phase: 'done',
        direction: 'receive',
        files: [{ name: 'message.txt', size: 20 }],
        totalBytes: 20,
        text,
        peer: { fingerprint: FINGERPRINT, check: { kind: 'unverified' }, program: 'browser' },
      },
      1,
      'text',
    );
    expect(kept.text).toBe(text);
    expect(entrySummary(kept)).toBe(
      'Received a text message (18 characters) from a web browser · not verified',
    );
    expect(readStoredHistory([kept])).toEqual([kept]);
  });

  it('keeps the first names of a large batch and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ name: `f${i}.txt`, size: 1 }));
    const kept = entryFromDone({ ...received, files: many }, 1, 'many');
    expect(kept.files.map((file) => file.name)).toEqual(
      many.slice(0, HISTORY_NAMES_PER_ENTRY).map((file) => file.name),
    );
    expect(kept.fileCount).toBe(25);
    expect(kept.totalBytes).toBe(25);
  });
});

describe('an entry of a batch that did not arrive whole', () => {
  type Failed = Extract<TransferView, { phase: 'failed' }>;
  const failed = (code: Failed['code'], extra: Partial<Failed> = {}): Failed => ({
    phase: 'failed',
    direction: 'receive',
    code,
    message: 'it ended',
    ...extra,
  });
  const batch = {
    fileCount: 3,
    totalBytes: 12 * MB,
    check: { kind: 'words', words: 'a b c' },
  } as const;

  it('names a decline or a cancel by either person, and anything else a failure', () => {
    expect(outcomeOf('ERR_DECLINED')).toBe('declined');
    expect(outcomeOf('ERR_PEER_DECLINED')).toBe('declined');
    expect(outcomeOf('ERR_CANCELLED')).toBe('cancelled');
    expect(outcomeOf('ERR_PEER_CANCELLED')).toBe('cancelled');
    expect(outcomeOf('ERR_PEER_CLOSED')).toBe('failed');
    expect(outcomeOf('ERR_DISK_FULL')).toBe('failed');
  });

  it('keeps what arrived whole, the batch as offered, and who it was by its program', () => {
    const kept = entryFromFailed(
      failed('ERR_PEER_CANCELLED', {
        arrived: [{ name: 'photos/a.jpg', size: 4 * MB, savedPath: '/d/photos/a.jpg' }],
        peer: { fingerprint: FINGERPRINT, check: { kind: 'unverified' }, program: 'command-line' },
      }),
      batch,
      5,
      'cut',
    );
    expect(kept).toEqual({
      id: 'cut',
      direction: 'receive',
      at: 5,
      fileCount: 1,
      totalBytes: 4 * MB,
      files: [{ name: 'photos/a.jpg', size: 4 * MB, savedPath: '/d/photos/a.jpg' }],
      peer: { check: 'unverified', program: 'command-line', fingerprint: FINGERPRINT },
      outcome: 'cancelled',
      offered: { fileCount: 3, totalBytes: 12 * MB },
    });
    expect(entrySummary(kept)).toBe(
      'Cancelled — receiving 3 files, 12.6 MB from the command line · 1 of 3 files arrived · not verified',
    );
  });

  it('falls back on the check the screen showed, and says when what arrived is not known', () => {
    const kept = entryFromFailed(
      { ...failed('ERR_PEER_DECLINED'), direction: 'send' },
      batch,
      5,
      'no',
    );
    expect(kept).toMatchObject({ peer: { check: 'words' }, arrivalUnknown: true, fileCount: 0 });
    expect(entrySummary(kept)).toBe(
      'Declined — sending 3 files, 12.6 MB · what arrived is not known · verified',
    );
    const none = entryFromFailed(
      failed('ERR_DISK_FULL', {
        arrived: [],
        peer: { fingerprint: FINGERPRINT, check: { kind: 'link' }, announcedName: 'Bea phone' },
      }),
      batch,
      5,
      'none',
    );
    expect(entrySummary(none)).toBe(
      'Failed — receiving 3 files, 12.6 MB from “Bea phone” · none arrived · verified',
    );
  });

  it('calls no peer verified whose check failed', () => {
    const kept = entryFromFailed(
      failed('ERR_NOT_CONFIRMED', {
        arrived: [],
        peer: { fingerprint: FINGERPRINT, check: { kind: 'words', words: 'a b c' } },
      }),
      batch,
      5,
      'differ',
    );
    // Nor keeps its fingerprint: nothing may be sent to it again as to a known device.
    expect(kept.peer).toEqual({ check: 'unverified' });
    expect(entrySummary(kept)).toBe(
      'Failed — receiving 3 files, 12.6 MB · none arrived · not verified',
    );
  });

  it('names the remembered device to send to again, as it is named now, and none it does not remember', () => {
    const kept = entryFromDone(received, 1, 'one');
    const laptop = {
      fingerprint: FINGERPRINT,
      name: 'Kitchen',
      autoAccept: false,
      rememberedAt: 0,
    };
    expect(rememberedPeerOf(kept, [laptop])).toEqual(laptop);
    expect(rememberedPeerOf(kept, [])).toBeUndefined();
    expect(rememberedPeerOf({ ...kept, peer: { check: 'words' } }, [laptop])).toBeUndefined();
    // The fingerprint survives storage.
    expect(readStoredHistory([kept])).toEqual([kept]);
  });

  it('reads back from storage, and an outcome without the batch offered as arrived whole', () => {
    const kept = entryFromFailed(failed('ERR_DECLINED'), batch, 5, 'stored');
    const { offered: _offered, ...withoutOffered } = kept;
    expect(readStoredHistory([kept, withoutOffered])).toEqual([
      kept,
      { ...withoutOffered, outcome: undefined, arrivalUnknown: undefined },
    ]);
  });
});

describe('the history list', () => {
  it('puts the newest first and keeps at most HISTORY_MAX_ENTRIES', () => {
    let history: HistoryEntry[] = [];
    for (let i = 0; i < HISTORY_MAX_ENTRIES + 5; i += 1)
      history = addEntry(history, entry(`e${i}`, i));
    expect(history).toHaveLength(HISTORY_MAX_ENTRIES);
    expect(history[0].id).toBe(`e${HISTORY_MAX_ENTRIES + 4}`);
    expect(history.at(-1)?.id).toBe('e5');
    expect(clearedHistory()).toEqual([]);
  });

  it('reads a stored list entry by entry: a damaged entry costs only itself', () => {
    const stored = [
      entry('good'),
      { ...entry('negative size'), totalBytes: -1 },
      { ...entry('no direction'), direction: 'sideways' },
      'not an entry',
      null,
      { ...entry('bad path'), folder: 'a\0b' },
      { ...entry('odd peer'), peer: { check: 'telepathy' }, extra: 'dropped' },
      {
        ...entry('too many names'),
        files: Array.from({ length: 11 }, () => ({ name: 'x', size: 1 })),
      },
      { ...entry('fewer counted than listed'), fileCount: 0 },
    ];
    expect(readStoredHistory(stored)).toEqual([
      entry('good'),
      { ...entry('odd peer'), peer: { check: 'unverified' } },
      { ...entry('fewer counted than listed'), fileCount: 1 },
    ]);
  });

  it('reads anything but a list as empty, and a list too long as its newest entries', () => {
    expect(readStoredHistory(undefined)).toEqual([]);
    expect(readStoredHistory({ entries: [] })).toEqual([]);
    const long = Array.from({ length: HISTORY_MAX_ENTRIES + 1 }, (_, i) => entry(`e${i}`));
    expect(readStoredHistory(long)).toEqual(long.slice(0, HISTORY_MAX_ENTRIES));
  });
});
