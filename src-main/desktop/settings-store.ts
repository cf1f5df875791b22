import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DesktopSettings } from '../../src-shared/ipc/contract';
import { readSettings } from '../../src-shared/ipc/settings-schema';

/** Settings persisted as JSON in the user-data folder; a damaged file falls back to defaults. */
export interface SettingsStore {
  get(): DesktopSettings;
  /** Resolves once the change is on disk; a failed write leaves the settings as they were. */
  update(change: Partial<DesktopSettings>): Promise<DesktopSettings>;
}

/** Write, fsync, rename: a crash at any point leaves the old file or the new one, never half. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // Its own name per write, so no other write (of this or another store) can rename it away.
  const staging = `${file}.${randomUUID()}.tmp`;
  try {
    const handle = await open(staging, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(staging, file);
  } catch (error) {
    await rm(staging, { force: true });
    throw error;
  }
}

export async function openSettingsStore(
  file: string,
  defaults: DesktopSettings,
): Promise<SettingsStore> {
  let current = defaults;
  try {
    current = readSettings(JSON.parse(await readFile(file, 'utf8')), defaults);
  } catch {
    // A missing or unreadable file means first launch: defaults stand.
  }
  // Updates run one at a time, each on the state the previous one saved.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    get: () => current,
    update(change) {
      const saved = queue.then(async () => {
        const next = readSettings({ ...current, ...change }, current);
        await writeAtomically(file, `${JSON.stringify(next, null, 2)}\n`);
        current = next;
        return next;
      });
      queue = saved.catch(() => undefined);
      return saved;
    },
  };
}
