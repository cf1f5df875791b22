import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanRoomView } from '../../src-shared/ipc/contract';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { receiveFiles } from '../engine';
import { scratchFolder, writeTextFile } from '../engine/test-support/files-on-disk';
import { createDesktopController, type DesktopController } from './desktop-controller';

// The desktop app's LAN room with "Serve over HTTPS" on (docs/architecture.md, "The LAN room over
// HTTPS"): the room shows its certificate's fingerprint, and the app's own transfers meet there.

let scratch: Awaited<ReturnType<typeof scratchFolder>>;
let controller: DesktopController;
let codeShown: (code: string) => void = () => undefined;

beforeAll(async () => {
  scratch = await scratchFolder();
  controller = await createDesktopController({
    userDataDir: join(scratch.path, 'user-data'),
    defaultDownloadFolder: join(scratch.path, 'Downloads'),
    webClientRoot: scratch.path,
    version: 'dev',
    discoverRooms: false,
    lanAddress: '127.0.0.1',
    dialogs: {
      pickFiles: async () => [],
      pickFolder: async () => [],
      pickDownloadFolder: async () => null,
      confirmChange: async () => true,
    },
    desktopShell: { openFolder: async () => undefined, revealFile: () => undefined },
  });
  controller.onEvent((channel, payload) => {
    const view = payload as TransferView;
    if (channel === 'transferState' && view.phase === 'waiting-for-peer') codeShown(view.code);
  });
});
afterAll(async () => {
  await controller.close();
  await scratch.remove();
});

function onRoom(view: LanRoomView): { url: string; fingerprint?: string } {
  if (view.state !== 'on') throw new Error(`the room is not on: ${JSON.stringify(view)}`);
  return view;
}

describe('the desktop app’s LAN room over HTTPS', () => {
  it('is off by default, and turned on serves HTTPS with its fingerprint shown', async () => {
    const snapshot = await controller.handlers.getSnapshot({});
    expect(snapshot.settings.lanRoomHttps).toBe(false);
    expect(onRoom(await controller.handlers.setLanRoom({ enabled: true })).url).toMatch(/^http:/);

    // Switched while the room is on: it starts again over HTTPS.
    await controller.handlers.updateSettings({ lanRoomHttps: true });
    const room = onRoom((await controller.handlers.getSnapshot({})).lanRoom);
    expect(room.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect(room.fingerprint).toMatch(/^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/);
  });

  it('carries the app’s own send, to a receiver that pinned the fingerprint shown', async () => {
    const room = onRoom((await controller.handlers.getSnapshot({})).lanRoom);
    const file = join(scratch.path, 'outbox', 'note.txt');
    await writeTextFile(file, 'over the https room');
    controller.openPaths([file]);
    const code = new Promise<string>((resolve) => (codeShown = resolve));
    await controller.handlers.startSend({ paths: [file] });

    const into = join(scratch.path, 'received');
    const receiver = receiveFiles({
      serverUrl: room.url,
      serverCertificate: room.fingerprint,
      code: await code,
      destination: into,
      iceServers: [],
      remedySurface: 'cli',
    });
    expect(await receiver.finished).toMatchObject({ phase: 'done' });
    expect(await readFile(join(into, 'note.txt'), 'utf8')).toBe('over the https room');
    await controller.settled();
  });
});
