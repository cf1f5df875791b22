import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DesktopSnapshot, InvokeChannel } from '../../src-shared/ipc/contract';
import { dispatchInvoke } from '../../src-shared/ipc/dispatch';
import type { IpcResult } from '../../src-shared/ipc/result';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { receiveFiles } from '../engine';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { createDesktopController, type DesktopController } from './desktop-controller';

const rig = useLoopbackRig();

let running: DesktopController | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** The desktop app's main process on loopback, asked the way the window asks it: over IPC. */
async function desktop(name: string, pickedFiles: string[] = []) {
  const root = join(rig.scratch.path, name);
  const controller = await createDesktopController({
    userDataDir: join(root, 'user-data'),
    defaultDownloadFolder: join(root, 'Downloads'),
    defaultServerUrl: rig.server.url,
    webClientRoot: root,
    version: 'dev',
    discoverRooms: false,
    dialogs: {
      pickFiles: async () => pickedFiles,
      pickFolder: async () => [],
      pickDownloadFolder: async () => null,
    },
    desktopShell: { openFolder: async () => undefined, revealFile: () => undefined },
  });
  running = controller;
  const transferViews: TransferView[] = [];
  controller.onEvent((channel, payload) => {
    if (channel === 'transferState') transferViews.push(payload as TransferView);
  });
  return {
    controller,
    transferViews,
    call: (channel: InvokeChannel, request: unknown): Promise<IpcResult<unknown>> =>
      dispatchInvoke(controller.handlers, channel, request, (error) => {
        throw error;
      }),
    nextView: (matches: (view: TransferView) => boolean) =>
      new Promise<TransferView>((resolve) => {
        const stop = controller.onEvent((channel, payload) => {
          if (channel === 'transferState' && matches(payload as TransferView)) {
            stop();
            resolve(payload as TransferView);
          }
        });
      }),
  };
}

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
    const app = await desktop('busy', [photo]);
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
