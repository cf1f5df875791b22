import { vi } from 'vitest';
import { appRulesContract } from '../../../src-shared/app/app-rules.contract';
import type { HistoryEntry } from '../../../src-shared/history/transfer-history';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import type { DevicesView } from '../ferry-backend';
import { createBrowserBackend } from './browser-backend';
import type { BrowserStart } from './browser-sessions';

// The application rules on the browser backend, asked the way the page asks it, with transfers
// the suite drives by hand. The page can choose a folder, as Chromium's can, which its quick save
// needs (quick-save.ts).
vi.stubGlobal('showDirectoryPicker', () => Promise.reject(new Error('not asked in these tests')));

appRulesContract('browser backend', async (sessions) => {
  const backend = createBrowserBackend(
    { origin: 'http://127.0.0.1:9', href: 'http://127.0.0.1:9/', userAgent: '' },
    sessions,
  );
  const views: TransferView[] = [];
  const histories: HistoryEntry[][] = [];
  const devices: DevicesView[] = [];
  const warnings: string[] = [];
  const following = new AbortController();
  backend.subscribe((event) => {
    if (event.type === 'transfer') views.push(event.transfer);
    if (event.type === 'history') histories.push(event.history);
    if (event.type === 'devices') devices.push(event.devices);
    if (event.type === 'warning') warnings.push(event.message);
  }, following.signal);
  return Promise.resolve({
    start: (kind) =>
      kind === 'send' ? backend.startSendText('hello') : backend.startReceive('acid-otter-plank'),
    cancel: () => backend.cancel(),
    dismiss: () => backend.dismiss(),
    answerOffer: (accept) => backend.answerOffer(accept, undefined),
    answerWords: (match) => backend.answerWords(match),
    rememberPeer: (name) => backend.rememberPeer(name),
    renameDevice: (fingerprint, name) => backend.renameDevice(fingerprint, name),
    renameSelf: (name) => backend.renameSelf(name),
    forgetDevice: (fingerprint) => backend.forgetDevice(fingerprint),
    sendTo: (fingerprint) => backend.startSend([], fingerprint),
    pinOf: (request) => (request as BrowserStart & { kind: 'send' }).to,

    setDeviceAutoAccept: (fingerprint, autoAccept) =>
      backend.setDeviceAutoAccept(fingerprint, autoAccept),
    keepHistory: async (keep) => {
      const changed = await backend.updateSettings({ keepHistory: keep });
      if (!changed.ok) throw new Error(changed.error.message);
    },
    views,
    histories,
    devices,
    warnings,
    close: async () => {
      for (const transfer of sessions.started) transfer.finishClosing();
      following.abort();
    },
  });
});
