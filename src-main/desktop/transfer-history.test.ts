import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src-shared/history/transfer-history';
import type { DesktopSettings, DesktopSnapshot } from '../../src-shared/ipc/contract';
import type { IpcResult } from '../../src-shared/ipc/result';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { openInstallation } from '../devices/installation';
import { startSender } from '../engine/test-support/transfer-pair';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback, type DesktopOnLoopback } from './test-support/desktop-on-loopback';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const refused = {
  ok: false,
  error: expect.objectContaining({ code: 'ERR_PATH_NOT_CHOSEN' }) as unknown,
};
const done = { ok: true, value: null };

const valueOf = <T>(result: IpcResult<unknown>): T => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
};

const historyOf = async (app: DesktopOnLoopback): Promise<HistoryEntry[]> =>
  valueOf<DesktopSnapshot>(await app.call('getSnapshot', {})).history;

let sources = 0;

/**
 * A computer with Ferry installed (its own certificate, so the app is shown words) sends `name`
 * to `app`, whose person says yes when asked; resolves once both ends are finished, the transfer
 * left on screen.
 */
async function receive(app: DesktopOnLoopback, folder: string, name: string): Promise<void> {
  const from = await openInstallation(join(rig.scratch.path, folder, 'laptop'), 'Laptop');
  const source = join(rig.scratch.path, 'sources', String((sources += 1)), name);
  await writeTextFile(source, `the contents of ${name}`);
  const { sender, code } = await startSender(rig.server.url, {
    paths: [source],
    iceServers: [],
    // The release string a desktop app sends: the history names the program by it.
    ver: 'desktop-v1.2.3',
    identity: { pemFile: from.identity.pemFile, devices: from.setting },
  });
  const finished = new Promise<TransferView>((resolve) => {
    const stop = app.controller.onEvent((channel, payload) => {
      if (channel !== 'transferState') return;
      const view = payload as TransferView;
      if (view.phase === 'awaiting-acceptance') void app.call('answerOffer', { accept: true });
      if (view.phase === 'done' || view.phase === 'failed') {
        stop();
        resolve(view);
      }
    });
  });
  expect(await app.call('startReceive', { code })).toEqual(done);
  const [view] = await Promise.all([finished, sender.finished, app.controller.settled()]);
  expect(view).toMatchObject({ phase: 'done' });
}

describe('the history of the desktop app', () => {
  it('keeps a finished receive across a restart; its folder and file open again until cleared', async () => {
    const first = await desktop('kept');
    await receive(first, 'kept', 'report.pdf');
    const saved = join(first.downloads, 'report.pdf');
    const entry: HistoryEntry = {
      id: expect.any(String) as string,
      direction: 'receive',
      at: expect.any(Number) as number,
      fileCount: 1,
      totalBytes: 'the contents of report.pdf'.length,
      files: [{ name: 'report.pdf', size: 'the contents of report.pdf'.length, savedPath: saved }],
      // Who it was, as far as it told: its own name, the program its release string names, and the
      // certificate it was checked by (what Send again pins).
      peer: {
        check: 'words',
        announcedName: 'Laptop',
        program: 'desktop',
        fingerprint: expect.stringMatching(/^sha-256 /) as string,
      },
      folder: first.downloads,
    };
    expect(await historyOf(first)).toEqual([entry]);
    expect(first.historyChanged).toEqual([[entry]]);
    const kept = await historyOf(first);
    expect(await first.call('dismissTransfer', {})).toEqual(done);
    await first.close();

    const again = await desktop('kept');
    expect(await historyOf(again)).toEqual(kept);
    // No transfer on screen: only the history lets the window open these.
    expect(await again.call('openFolder', { path: again.downloads })).toEqual(done);
    expect(await again.call('revealFile', { path: saved })).toEqual(done);
    expect(again.opened).toEqual([again.downloads, saved]);
    for (const [channel, path] of [
      ['openFolder', join(rig.scratch.path, 'kept', 'user-data')],
      ['revealFile', join(again.downloads, 'other.pdf')],
    ] as const) {
      expect(await again.call(channel, { path })).toEqual(refused);
    }

    expect(await again.call('clearHistory', {})).toEqual({ ok: true, value: [] });
    expect(again.historyChanged).toEqual([[]]);
    expect(await historyOf(again)).toEqual([]);
    expect(await again.call('revealFile', { path: saved })).toEqual(refused);
    expect(await again.call('openFolder', { path: again.downloads })).toEqual(refused);
    expect(again.opened).toEqual([again.downloads, saved]);
  });

  it('turned off, is emptied and keeps nothing more', async () => {
    const app = await desktop('off');
    await receive(app, 'off', 'first.txt');
    expect(await historyOf(app)).toHaveLength(1);
    expect(await app.call('dismissTransfer', {})).toEqual(done);

    const off = await app.call('updateSettings', { keepHistory: false });
    expect(valueOf<DesktopSettings>(off).keepHistory).toBe(false);
    expect(app.historyChanged.at(-1)).toEqual([]);
    expect(await historyOf(app)).toEqual([]);

    await receive(app, 'off', 'second.txt');
    expect(await historyOf(app)).toEqual([]);
    const file = join(rig.scratch.path, 'off', 'user-data', 'history.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([]);
  });
});
