import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FerryBackend, HistoryEntry } from '../backend/ferry-backend';
import { succeeded, type NoticeStore } from './notice-store';

/** The finished transfers this device keeps, newest first. */
export interface HistoryState {
  /** Null only until the first snapshot arrives. */
  history: HistoryEntry[] | null;
  apply(history: HistoryEntry[]): void;
  /** True once the backend emptied it. */
  clear(): Promise<boolean>;
}

export type HistoryStore = StoreApi<HistoryState>;

export function createHistoryStore(backend: FerryBackend, notice: NoticeStore): HistoryStore {
  return createStore<HistoryState>()((set) => ({
    history: null,
    apply: (history) => set({ history }),
    async clear() {
      const result = await backend.clearHistory();
      if (!succeeded(result, notice)) return false;
      set({ history: result.value });
      return true;
    },
  }));
}
