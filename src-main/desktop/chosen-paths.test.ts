import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { sendFiles } from '../engine';
import { filesUnder, writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback } from './test-support/desktop-on-loopback';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const refusedAsUnchosen = expect.objectContaining({
  ok: false,
  error: expect.objectContaining({ code: 'ERR_PATH_NOT_CHOSEN' }),
});

/** A sender on loopback offering `file`; resolves with its code once it waits for a receiver. */
function offer(file: string): Promise<string> {
  const sender = sendFiles({
    serverUrl: rig.server.url,
    remedySurface: 'cli',
    paths: [file],
    iceServers: [],
  });
  return new Promise((resolve) =>
    sender.on('state', (state) => {
      if (state.phase === 'waiting-for-peer') resolve(state.code);
    }),
  );
}

describe('main trusts only the paths it handed out itself', () => {
  it('describes and sends only what a dialog, a drop or "Open with" handed out', async () => {
    const app = await desktop('send');
    const secret = join(rig.scratch.path, 'send', '.ssh', 'id_ed25519');
    const photo = join(rig.scratch.path, 'send', 'photo.jpg');
    const dropped = join(rig.scratch.path, 'send', 'dropped.txt');
    const opened = join(rig.scratch.path, 'send', 'opened.txt');
    for (const file of [secret, photo, dropped, opened]) await writeTextFile(file, file);

    for (const channel of ['describePaths', 'startSend'] as const) {
      const result = await app.call(channel, { paths: [secret] });
      expect(result).toEqual(refusedAsUnchosen);
      expect(!result.ok && result.error.message).toContain(secret);
    }
    const snapshot = await app.call('getSnapshot', {});
    expect(snapshot.ok && (snapshot.value as { transfer: TransferView }).transfer.phase).toBe(
      'idle',
    );

    app.dialog.files = [photo];
    expect(await app.call('pickFiles', {})).toMatchObject({ ok: true });
    app.controller.addDroppedPath(dropped);
    app.controller.openPaths([opened]);
    const described = await app.call('describePaths', { paths: [photo, dropped, opened] });
    expect(described).toMatchObject({ ok: true, value: [{ name: 'photo.jpg' }, {}, {}] });
    // One unchosen path among chosen ones refuses the whole request.
    expect(await app.call('startSend', { paths: [photo, secret] })).toEqual(refusedAsUnchosen);
  });

  it('saves only into a folder main chose, and opens only what the transfer saved', async () => {
    const app = await desktop('receive');
    const file = join(rig.scratch.path, 'receive', 'from', 'report.pdf');
    await writeTextFile(file, 'quarterly numbers');
    const autostart = join(rig.scratch.path, 'receive', 'autostart');
    const chosen = join(rig.scratch.path, 'receive', 'chosen');

    const code = await offer(file);
    const asking = app.nextView((view) => view.phase === 'awaiting-acceptance');
    expect(await app.call('startReceive', { code })).toEqual({ ok: true, value: null });
    await asking;

    expect(await app.call('answerOffer', { accept: true, destination: autostart })).toEqual(
      refusedAsUnchosen,
    );
    expect(await app.call('updateSettings', { downloadFolder: autostart })).toMatchObject({
      ok: false,
      error: { code: 'ERR_BAD_REQUEST' },
    });

    app.dialog.folder = chosen;
    expect(await app.call('chooseDestination', {})).toEqual({ ok: true, value: chosen });
    const done = app.nextView((view) => view.phase === 'done');
    expect(await app.call('answerOffer', { accept: true, destination: chosen })).toEqual({
      ok: true,
      value: null,
    });
    const view = await done;
    expect(await filesUnder(chosen)).toEqual(['report.pdf']);
    await expect(filesUnder(autostart)).rejects.toThrow();
    const saved = join(chosen, 'report.pdf');
    expect(await readFile(saved, 'utf8')).toBe('quarterly numbers');
    expect(view).toMatchObject({ phase: 'done', folder: chosen, files: [{ savedPath: saved }] });

    for (const [channel, path] of [
      ['openFolder', autostart],
      ['openFolder', app.downloads],
      ['revealFile', file],
      ['revealFile', join(chosen, 'other.pdf')],
    ] as const) {
      expect(await app.call(channel, { path })).toEqual(refusedAsUnchosen);
    }
    expect(app.opened).toEqual([]);
    expect(await app.call('openFolder', { path: chosen })).toEqual({ ok: true, value: null });
    expect(await app.call('revealFile', { path: saved })).toEqual({ ok: true, value: null });
    expect(app.opened).toEqual([chosen, saved]);
  });

  it('changes the download folder only through its own folder dialog', async () => {
    const app = await desktop('settings');
    const usb = join(rig.scratch.path, 'settings', 'usb');
    expect(await app.call('chooseDownloadFolder', {})).toEqual({ ok: true, value: null });
    app.dialog.folder = usb;
    expect(await app.call('chooseDownloadFolder', {})).toMatchObject({
      ok: true,
      value: { downloadFolder: usb },
    });
    const stored = JSON.parse(
      await readFile(join(rig.scratch.path, 'settings', 'user-data', 'settings.json'), 'utf8'),
    ) as { downloadFolder: string };
    expect(stored.downloadFolder).toBe(usb);
  });
});
