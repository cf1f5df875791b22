import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FerryBackend, FerrySettings, SettingsChange } from '../backend/ferry-backend';
import { succeeded, type NoticeStore } from './notice-store';

export interface SettingsState {
  /** Null only until the first snapshot arrives. */
  settings: FerrySettings | null;
  apply(settings: FerrySettings): void;
  /** Applies what the backend saved; true when it was. */
  update(changes: SettingsChange): Promise<boolean>;
  chooseDownloadFolder(): Promise<void>;
}

export type SettingsStore = StoreApi<SettingsState>;

export function createSettingsStore(backend: FerryBackend, notice: NoticeStore): SettingsStore {
  return createStore<SettingsState>()((set) => ({
    settings: null,
    apply: (settings) => set({ settings }),
    async update(changes) {
      const result = await backend.updateSettings(changes);
      if (!succeeded(result, notice)) return false;
      set({ settings: result.value });
      return true;
    },
    async chooseDownloadFolder() {
      // Main picks and saves the folder itself; the renderer only shows what was saved.
      const result = await backend.chooseDownloadFolder();
      if (succeeded(result, notice) && result.value !== null) set({ settings: result.value });
    },
  }));
}
