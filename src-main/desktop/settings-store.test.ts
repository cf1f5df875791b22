import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesktopSettings } from '../../src-shared/ipc/contract';
import { openSettingsStore } from './settings-store';

const defaults: DesktopSettings = {
  serverUrl: 'http://localhost:3001',
  downloadFolder: '/home/me/Downloads',
  reportStats: true,
  autoAccept: false,
};

async function settingsFile(content?: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'ferry-settings-')), 'settings.json');
  if (content !== undefined) await writeFile(file, content);
  return file;
}

describe('settings persist in the user-data folder', () => {
  it('first launch uses the defaults', async () => {
    const store = await openSettingsStore(await settingsFile(), defaults);
    expect(store.get()).toEqual(defaults);
  });

  it('a change survives reopening the store', async () => {
    const file = await settingsFile();
    const store = await openSettingsStore(file, defaults);
    await store.update({ reportStats: false, serverUrl: 'https://signal.example.org' });
    const reopened = await openSettingsStore(file, defaults);
    expect(reopened.get()).toEqual({
      ...defaults,
      reportStats: false,
      serverUrl: 'https://signal.example.org',
    });
  });

  it('a corrupt settings file falls back to the defaults instead of crashing', async () => {
    const store = await openSettingsStore(await settingsFile('{not json'), defaults);
    expect(store.get()).toEqual(defaults);
  });

  it('one invalid stored value is dropped and the valid ones are kept', async () => {
    const file = await settingsFile(
      JSON.stringify({ serverUrl: 'javascript:alert(1)', autoAccept: true, extra: 'x' }),
    );
    const store = await openSettingsStore(file, defaults);
    expect(store.get()).toEqual({ ...defaults, autoAccept: true });
  });

  it('the file on disk is complete JSON after an update', async () => {
    const file = await settingsFile();
    const store = await openSettingsStore(file, defaults);
    await store.update({ autoAccept: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...defaults, autoAccept: true });
  });
});
