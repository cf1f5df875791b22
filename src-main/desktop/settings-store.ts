import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DesktopSettings } from '../../src-shared/ipc/contract';
import { isBoolean, isHttpUrl, isPath, isRecord } from '../../src-shared/ipc/guards';

/** Settings persisted as JSON in the user-data folder; a damaged file falls back to defaults. */
export interface SettingsStore {
  get(): DesktopSettings;
  update(change: Partial<DesktopSettings>): Promise<DesktopSettings>;
}

const checks: { [K in keyof DesktopSettings]: (value: unknown) => boolean } = {
  serverUrl: isHttpUrl,
  downloadFolder: isPath,
  reportStats: isBoolean,
  autoAccept: isBoolean,
};

/** Keeps each stored value only if it is still valid, so one bad field never loses the rest. */
function mergeValid(defaults: DesktopSettings, stored: unknown): DesktopSettings {
  if (!isRecord(stored)) return defaults;
  const merged: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(checks) as (keyof DesktopSettings)[]) {
    if (checks[key](stored[key])) merged[key] = stored[key];
  }
  return merged as unknown as DesktopSettings;
}

export async function openSettingsStore(
  file: string,
  defaults: DesktopSettings,
): Promise<SettingsStore> {
  let current = defaults;
  try {
    current = mergeValid(defaults, JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // A missing or unreadable file means first launch: defaults stand.
  }

  return {
    get: () => current,
    async update(change) {
      current = mergeValid(current, { ...current, ...change });
      await mkdir(dirname(file), { recursive: true });
      // Write-then-rename so a crash mid-write never leaves a truncated settings file.
      const staging = `${file}.${process.pid}.tmp`;
      await writeFile(staging, `${JSON.stringify(current, null, 2)}\n`, 'utf8');
      await rename(staging, file);
      return current;
    },
  };
}
