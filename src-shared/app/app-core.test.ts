import type { RememberedDevice } from '../devices/remembered-devices';
import { forget, remember, rename, setAutoAccept } from '../devices/remembered-devices';
import { addEntry, type HistoryEntry } from '../history/transfer-history';
import type { DevicesView } from '../ipc/contract';
import type { TransferView } from '../transfer/transfer-view';
import type { ExpectedPeer } from '../session/expected-peer';
import { AppCore } from './app-core';
import { appRulesContract } from './app-rules.contract';

// The rules on the core itself, over ports that keep everything in memory; the desktop
// controller and the browser backend run the same suite over their own.
appRulesContract('the core itself', (sessions) => {
  const views: TransferView[] = [];
  const histories: HistoryEntry[][] = [];
  const devices: DevicesView[] = [];
  const warnings: string[] = [];
  let keeping = true;
  let entries: HistoryEntry[] = [];
  let remembered: RememberedDevice[] = [];
  let ids = 0;
  const core = new AppCore<'send' | 'receive' | { kind: 'send'; to: ExpectedPeer }>({
    sessions,
    history: {
      keeping: () => keeping,
      list: () => entries,
      add: async (entry) => (entries = addEntry(entries, entry)),
      clear: async () => (entries = []),
      newId: () => `entry-${(ids += 1)}`,
    },
    devices: {
      ownName: () => 'This computer',
      list: () => remembered,
      remember: async (fingerprint, name, pairSecret) => {
        remembered = remember(remembered, fingerprint, name, 0, pairSecret);
      },
      rename: async (fingerprint, name) => {
        remembered = rename(remembered, fingerprint, name);
      },
      forget: async (fingerprint) => {
        remembered = forget(remembered, fingerprint);
      },
      setAutoAccept: async (fingerprint, autoAccept) => {
        remembered = setAutoAccept(remembered, fingerprint, autoAccept);
      },
    },
    notify: {
      transfer: (view) => views.push(view),
      warning: (message) => warnings.push(message),
      history: (list) => histories.push([...list]),
      devices: (view) => devices.push(view),
    },
    clock: { now: () => 0 },
  });
  return Promise.resolve({
    start: (kind) => core.start(kind),
    cancel: async () => core.cancel(),
    dismiss: async () => core.dismiss(),
    answerOffer: (accept) => core.answerOffer(accept),
    answerWords: async (match) => core.answerWords(match),
    rememberPeer: (name) => core.rememberPeer(name),
    renameDevice: (fingerprint, name) => core.renameDevice(fingerprint, name),
    forgetDevice: (fingerprint) => core.forgetDevice(fingerprint),
    sendTo: async (fingerprint) => {
      const to = core.pinnedPeer(fingerprint);
      return 'code' in to ? { ok: false, error: to } : core.start({ kind: 'send', to });
    },
    pinOf: (request) =>
      typeof request === 'object' && request !== null && 'to' in request
        ? (request.to as ExpectedPeer)
        : undefined,

    setDeviceAutoAccept: (fingerprint, autoAccept) =>
      core.setDeviceAutoAccept(fingerprint, autoAccept),
    storedDevices: async () => remembered,
    keepHistory: async (keep) => {
      keeping = keep;
      await core.keepHistoryChanged(keep);
    },
    views,
    histories,
    devices,
    warnings,
    close: async () => {
      for (const transfer of sessions.started) transfer.finishClosing();
      await core.close();
    },
  });
});
