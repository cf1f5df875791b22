import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesktopSettings } from '../../src-shared/ipc/contract';
import { openSettingsStore } from './settings-store';

const defaults: DesktopSettings = {
  serverUrl: 'http://localhost:3001',
  downloadFolder: '/home/me/Downloads',
  reportStats: true,
  keepHistory: true,
  confirmWords: false,
  autoAcceptMaxBytes: 2 ** 31,
  lanRoomHttps: false,
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
      JSON.stringify({ serverUrl: 'javascript:alert(1)', reportStats: false, extra: 'x' }),
    );
    const store = await openSettingsStore(file, defaults);
    expect(store.get()).toEqual({ ...defaults, reportStats: false });
  });

  it('a file from before remembered devices, with the old global auto-accept, still reads', async () => {
    const file = await settingsFile(
      JSON.stringify({
        serverUrl: 'https://signal.example.org',
        downloadFolder: '/home/me/Inbox',
        reportStats: false,
        autoAccept: true,
      }),
    );
    const store = await openSettingsStore(file, defaults);
    const kept = {
      serverUrl: 'https://signal.example.org',
      downloadFolder: '/home/me/Inbox',
      reportStats: false,
      // Nor a history yet: it is kept from now on, as on a first launch.
      keepHistory: true,
      confirmWords: false,
      autoAcceptMaxBytes: 2 ** 31,
      lanRoomHttps: false,
    };
    expect(store.get()).toEqual(kept);
    // The next write leaves the old setting behind: nothing accepts offers by it any more.
    await store.update({ reportStats: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...kept, reportStats: true });
  });

  it('the file on disk is complete JSON after an update', async () => {
    const file = await settingsFile();
    const store = await openSettingsStore(file, defaults);
    await store.update({ reportStats: false });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...defaults, reportStats: false });
  });

  it('a stored value of the wrong kind falls back to its default alone', async () => {
    const file = await settingsFile(
      JSON.stringify({
        serverUrl: 'https://signal.example.org',
        downloadFolder: 'bad\0path',
        reportStats: 'no',
        keepHistory: 'off',
        confirmWords: 'yes',
        autoAcceptMaxBytes: -1,
        lanRoomHttps: 'on',
      }),
    );
    const store = await openSettingsStore(file, defaults);
    expect(store.get()).toEqual({
      ...defaults,
      serverUrl: 'https://signal.example.org',
    });
  });

  it('keeps the history turned off across a restart', async () => {
    const file = await settingsFile();
    await (await openSettingsStore(file, defaults)).update({ keepHistory: false });
    expect((await openSettingsStore(file, defaults)).get()).toEqual({
      ...defaults,
      keepHistory: false,
    });
  });

  it('a settings file that holds no object falls back to the defaults', async () => {
    const store = await openSettingsStore(await settingsFile('[1, 2]'), defaults);
    expect(store.get()).toEqual(defaults);
  });
});

describe('settings writes', () => {
  const UPDATES = 150;

  // Each update changes one of three settings, so a change applied to stale state loses the others.
  const updateNumber = (i: number): Partial<DesktopSettings> =>
    i % 3 === 0
      ? { serverUrl: `https://signal-${i}.example.org` }
      : i % 3 === 1
        ? { downloadFolder: `/home/me/Downloads/${i}` }
        : { reportStats: i % 2 === 0 };

  /** What the settings are after updates 0..last, one after the other. */
  const afterUpdates = (last: number): DesktopSettings =>
    Array.from({ length: last + 1 }, (_, i) => updateNumber(i)).reduce<DesktopSettings>(
      (settings, change) => ({ ...settings, ...change }),
      defaults,
    );

  it('150 overlapping updates all succeed, each on top of the one before', async () => {
    const file = await settingsFile();
    const store = await openSettingsStore(file, defaults);

    const results = await Promise.allSettled(
      Array.from({ length: UPDATES }, (_, i) => store.update(updateNumber(i))),
    );

    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(results.map((result) => result.status === 'fulfilled' && result.value)).toEqual(
      Array.from({ length: UPDATES }, (_, i) => afterUpdates(i)),
    );
    const last = afterUpdates(UPDATES - 1);
    expect(store.get()).toEqual(last);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(last);
    expect(await readdir(dirname(file))).toEqual(['settings.json']);
  });

  it('a failed write is reported, keeps the saved settings and does not block later updates', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ferry-settings-'));
    const userData = join(folder, 'user-data');
    const file = join(userData, 'settings.json');
    const store = await openSettingsStore(file, defaults);
    // A file where the user-data folder should be: the write cannot happen.
    await writeFile(userData, 'in the way');

    await expect(store.update({ serverUrl: 'https://signal.example.org' })).rejects.toThrow();
    expect(store.get()).toEqual(defaults);

    await rm(userData);
    expect(await store.update({ reportStats: false })).toEqual({ ...defaults, reportStats: false });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...defaults, reportStats: false });
    expect(await readdir(userData)).toEqual(['settings.json']);
  });
});
