import { join } from 'node:path';
import {
  addEntry,
  clearedHistory,
  readStoredHistory,
  type HistoryEntry,
} from '../../src-shared/history/transfer-history';
import { openJsonFileStore } from '../storage/json-file-store';

/** The finished transfers a native installation keeps, in `history.json` beside its settings. */
export interface HistoryBook {
  /** Newest first. */
  list(): readonly HistoryEntry[];
  add(entry: HistoryEntry): Promise<readonly HistoryEntry[]>;
  clear(): Promise<readonly HistoryEntry[]>;
}

const HISTORY_FILE = 'history.json';

export async function openHistoryBook(folder: string): Promise<HistoryBook> {
  const store = await openJsonFileStore<readonly HistoryEntry[]>(
    join(folder, HISTORY_FILE),
    readStoredHistory,
    [],
  );
  return {
    list: () => store.get(),
    add: (entry) => store.update((history) => addEntry(history, entry)),
    clear: () => store.update(clearedHistory),
  };
}
