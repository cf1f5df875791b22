import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRulesContract } from '../../src-shared/app/app-rules.contract';
import { readStoredDevices } from '../../src-shared/devices/remembered-devices';
import type { DevicesView, InvokeChannel } from '../../src-shared/ipc/contract';
import { dispatchInvoke } from '../../src-shared/ipc/dispatch';
import type { HistoryEntry } from '../../src-shared/history/transfer-history';
import type { IpcResult } from '../../src-shared/ipc/result';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { createDesktopController } from './desktop-controller';
import type { DesktopStart } from './transfer-session';

// The application rules on the desktop controller, asked the way the window asks it: through
// the IPC contract's dispatch, with transfers the suite drives by hand.
appRulesContract('desktop controller', async (sessions) => {
  const root = await mkdtemp(join(tmpdir(), 'ferry-app-rules-'));
  const note = join(root, 'note.txt');
  await writeFile(note, 'hello');
  const controller = await createDesktopController({
    userDataDir: join(root, 'user-data'),
    defaultDownloadFolder: join(root, 'Downloads'),
    defaultServerUrl: 'http://127.0.0.1:9',
    webClientRoot: root,
    version: 'dev',
    discoverRooms: false,
    sessions,
    dialogs: {
      // What a pinned send sends: a path is sent only once the person chose it.
      pickFiles: async () => [note],
      pickFolder: async () => [],
      pickDownloadFolder: async () => null,
      confirmChange: async () => true,
    },
    desktopShell: { openFolder: async () => undefined, revealFile: () => undefined },
  });
  const views: TransferView[] = [];
  const histories: HistoryEntry[][] = [];
  const devices: DevicesView[] = [];
  const warnings: string[] = [];
  controller.onEvent((channel, payload) => {
    if (channel === 'transferState') views.push(payload as TransferView);
    if (channel === 'historyChanged') histories.push(payload as HistoryEntry[]);
    if (channel === 'devicesChanged') devices.push(payload as DevicesView);
    if (channel === 'transferWarning') warnings.push((payload as { message: string }).message);
  });
  const call = <T>(channel: InvokeChannel, request: unknown): Promise<IpcResult<T>> =>
    dispatchInvoke(controller.handlers, channel, request, (error) => {
      throw error;
    }) as Promise<IpcResult<T>>;
  return {
    start: (kind) =>
      kind === 'send'
        ? call('startSendText', { text: 'hello' })
        : call('startReceive', { code: 'acid-otter-plank' }),
    cancel: () => call('cancelTransfer', {}),
    dismiss: () => call('dismissTransfer', {}),
    answerOffer: (accept) => call('answerOffer', { accept }),
    answerWords: (match) => call('answerWords', { match }),
    rememberPeer: (name) => call('rememberPeer', { name }),
    renameDevice: (fingerprint, name) => call('renameDevice', { fingerprint, name }),
    forgetDevice: (fingerprint) => call('forgetDevice', { fingerprint }),
    sendTo: async (fingerprint) => {
      await call('pickFiles', {});
      return call('startSend', { paths: [note], to: fingerprint });
    },
    pinOf: (request) => (request as DesktopStart).peer.expectPeer,

    setDeviceAutoAccept: (fingerprint, autoAccept) =>
      call('setDeviceAutoAccept', { fingerprint, autoAccept }),
    // As main keeps it, in devices.json: the shared schema reads it back.
    storedDevices: async () =>
      readStoredDevices(
        JSON.parse(await readFile(join(root, 'user-data', 'devices.json'), 'utf8')),
      ),
    keepHistory: async (keep) => {
      const changed = await call('updateSettings', { keepHistory: keep });
      if (!changed.ok) throw new Error(changed.error.message);
    },
    views,
    histories,
    devices,
    warnings,
    close: async () => {
      for (const transfer of sessions.started) transfer.finishClosing();
      await controller.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});
