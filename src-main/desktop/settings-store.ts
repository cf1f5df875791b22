import type { DesktopSettings } from '../../src-shared/ipc/contract';
import { readSettings } from '../../src-shared/ipc/settings-schema';
import { openJsonFileStore } from '../storage/json-file-store';

/** Settings persisted as JSON in the user-data folder; a damaged file falls back to defaults. */
export interface SettingsStore {
  get(): DesktopSettings;
  /** Resolves once the change is on disk; a failed write leaves the settings as they were. */
  update(change: Partial<DesktopSettings>): Promise<DesktopSettings>;
}

export async function openSettingsStore(
  file: string,
  defaults: DesktopSettings,
): Promise<SettingsStore> {
  const store = await openJsonFileStore(file, (stored) => readSettings(stored, defaults), defaults);
  return {
    get: () => store.get(),
    update: (change) => store.update((current) => readSettings({ ...current, ...change }, current)),
  };
}
