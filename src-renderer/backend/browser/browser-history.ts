import { get, set } from 'idb-keyval';
import { readStoredHistory, type HistoryEntry } from '../../../src-shared/history/transfer-history';
import { withStore } from './browser-identity';

const HISTORY_KEY = 'history';
const KEEP_HISTORY_KEY = 'keep-history';

/**
 * The finished transfers this browser keeps, as stored (an empty list when none are); undefined
 * when IndexedDB is unavailable.
 */
export async function loadHistory(): Promise<HistoryEntry[] | undefined> {
  try {
    return readStoredHistory(await withStore((db) => get<unknown>(HISTORY_KEY, db)));
  } catch {
    return undefined;
  }
}

/** Stores the list; false when IndexedDB is unavailable, and the list lasts for this page only. */
export async function saveHistory(history: readonly HistoryEntry[]): Promise<boolean> {
  try {
    await withStore((db) => set(HISTORY_KEY, history, db));
    return true;
  } catch {
    return false;
  }
}

/** Whether the person keeps a history here: true unless they turned it off. */
export async function loadKeepHistory(): Promise<boolean> {
  try {
    return (await withStore((db) => get<unknown>(KEEP_HISTORY_KEY, db))) !== false;
  } catch {
    return true;
  }
}

export async function saveKeepHistory(keep: boolean): Promise<boolean> {
  try {
    await withStore((db) => set(KEEP_HISTORY_KEY, keep, db));
    return true;
  } catch {
    return false;
  }
}
