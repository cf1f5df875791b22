import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { symlink } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { DesktopSnapshot } from '../../src-shared/ipc/contract';
import type { IpcResult } from '../../src-shared/ipc/result';
import { receiveFiles } from '../engine';
import { startSender } from '../engine/test-support/transfer-pair';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback } from './test-support/desktop-on-loopback';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const snapshotOf = (result: IpcResult<unknown>): DesktopSnapshot => {
  if (!result.ok) throw new Error(`getSnapshot failed: ${result.error.message}`);
  return result.value as DesktopSnapshot;
};

const busy = {
  ok: false,
  error: { code: 'ERR_BUSY', message: 'A transfer is already running; finish or cancel it first.' },
};

describe('the desktop app runs one transfer at a time', () => {
  it('refuses a second send or receive with ERR_BUSY and the first goes on undisturbed', async () => {
    const photo = join(rig.scratch.path, 'busy', 'photo.jpg');
    await writeTextFile(photo, 'a sunset');
    const app = await desktop('busy');
    app.dialog.files = [photo];
    expect(await app.call('pickFiles', {})).toMatchObject({ ok: true });

    const waiting = app.nextView((view) => view.phase === 'waiting-for-peer');
    expect(await app.call('startSend', { paths: [photo] })).toEqual({ ok: true, value: null });
    const first = await waiting;
    if (first.phase !== 'waiting-for-peer') throw new Error('unreachable');
    const viewsBefore = app.transferViews.length;

    expect(await app.call('startSend', { paths: [photo] })).toEqual(busy);
    expect(await app.call('startReceive', { code: 'acid-otter-plank' })).toEqual(busy);
    expect(app.transferViews).toHaveLength(viewsBefore);
    expect(snapshotOf(await app.call('getSnapshot', {})).transfer).toEqual(first);

    // The first transfer still delivers: a receiver with its code gets the photo.
    const done = app.nextView((view) => view.phase === 'done' || view.phase === 'failed');
    const destination = join(rig.scratch.path, 'busy', 'received');
    const receiver = receiveFiles({
      serverUrl: rig.server.url,
      code: first.code,
      destination,
      iceServers: [],
      remedySurface: 'cli',
    });
    expect(await receiver.finished).toMatchObject({ phase: 'done' });
    expect(await done).toMatchObject({ phase: 'done', direction: 'send' });
    expect(await readFile(join(destination, 'photo.jpg'), 'utf8')).toBe('a sunset');
  });
});

describe('a finished transfer', () => {
  it('can be left, and another started, the moment its outcome shows, while its channel still closes', async () => {
    const note = join(rig.scratch.path, 'leave-at-once', 'note.txt');
    await writeTextFile(note, 'read me');
    const app = await desktop('leave-at-once');
    const { sender, code } = await startSender(rig.server.url, { paths: [note], iceServers: [] });
    const asked = app.nextView((view) => view.phase === 'awaiting-acceptance');
    expect(await app.call('startReceive', { code })).toEqual({ ok: true, value: null });
    await asked;
    const done = app.nextView((view) => view.phase === 'done');
    expect(await app.call('answerOffer', { accept: true })).toEqual({ ok: true, value: null });
    await done;

    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });
    expect(snapshotOf(await app.call('getSnapshot', {})).transfer).toEqual({ phase: 'idle' });
    const next = app.nextView((view) => view.phase === 'failed');
    expect(await app.call('startReceive', { code: 'acid-otter-plank' })).toEqual({
      ok: true,
      value: null,
    });
    expect(await next).toMatchObject({ phase: 'failed', code: 'ERR_CODE_NOT_FOUND' });
    expect(await sender.finished).toMatchObject({ phase: 'done' });
    await app.controller.settled();
  });
});

describe('receiving from a pasted receive link', () => {
  it('proves the link’s key with the sender: the prompt says verified automatically', async () => {
    const note = join(rig.scratch.path, 'pasted-link', 'note.txt');
    await writeTextFile(note, 'linked');
    const app = await desktop('pasted-link');
    const { sender, ...shown } = await startSender(rig.server.url, {
      paths: [note],
      iceServers: [],
    });
    const asked = app.nextView((view) => view.phase === 'awaiting-acceptance');
    expect(await app.call('startReceive', { code: shown.code, key: shown.key })).toEqual({
      ok: true,
      value: null,
    });
    expect(await asked).toMatchObject({ offer: { peerCheck: { kind: 'link' } } });
    expect(await app.call('answerOffer', { accept: false })).toEqual({ ok: true, value: null });
    // A decline is the spec's plain close: the sender hears the connection close.
    expect(await sender.finished).toMatchObject({ phase: 'failed' });
    expect(await app.call('startReceive', { code: shown.code, key: 'not a key' })).toMatchObject({
      ok: false,
      error: { code: 'ERR_BAD_REQUEST' },
    });
    await app.controller.settled();
  });
});

describe('files Ferry was opened with', () => {
  it('are handed to the window once: a second snapshot holds none', async () => {
    const report = join(rig.scratch.path, 'opened', 'report.pdf');
    await writeTextFile(report, 'numbers');
    const app = await desktop('opened');
    app.controller.openPaths([report]);

    expect(snapshotOf(await app.call('getSnapshot', {})).pendingPaths).toEqual([report]);
    expect(snapshotOf(await app.call('getSnapshot', {})).pendingPaths).toEqual([]);
  });
});

describe('what the person should know about a transfer', () => {
  it('reaches the window as a warning: a link inside a sent folder is named and not sent', async () => {
    const album = join(rig.scratch.path, 'warned', 'album');
    await writeTextFile(join(album, 'a.jpg'), 'a photo');
    await symlink(rig.scratch.path, join(album, 'everything'));
    const app = await desktop('warned');
    app.dialog.files = [album];
    expect(await app.call('pickFolder', {})).toMatchObject({ ok: true });

    const waiting = app.nextView((view) => view.phase === 'waiting-for-peer');
    expect(await app.call('startSend', { paths: [album] })).toEqual({ ok: true, value: null });
    expect(await waiting).toMatchObject({ files: [{ name: 'album/a.jpg' }] });
    expect(app.warnings).toEqual([{ message: expect.stringContaining('album/everything') }]);
  });
});
