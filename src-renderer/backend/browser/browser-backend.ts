import {
  forget,
  remember as rememberDevice,
  rename,
  type RememberedDevice,
} from '../../../src-shared/devices/remembered-devices';
import type { DeviceSetting } from '../../../src-shared/devices/peer-identity';
import {
  addEntry,
  clearedHistory,
  entryFromDone,
  type HistoryEntry,
} from '../../../src-shared/history/transfer-history';
import { ok } from '../../../src-shared/ipc/result';
import { IDLE_TRANSFER, type TransferView } from '../../../src-shared/transfer/transfer-view';
import type {
  BackendEvent,
  BackendResult,
  DevicesView,
  FerryBackend,
  FerrySettings,
  SelectedItem,
} from '../ferry-backend';
import {
  BROWSER_DEVICE_NAME,
  loadRememberedDevices,
  saveRememberedDevices,
} from './browser-identity';
import { loadHistory, loadKeepHistory, saveHistory, saveKeepHistory } from './browser-history';
import { loadConfirmWords, saveConfirmWords } from './browser-settings';
import { AUTO_ACCEPT_DEFAULT_MAX_BYTES } from '../../../src-shared/devices/auto-accept';
import { entriesOf, itemsFromEntries } from './dropped-items';
import { pickFiles, pickFolder } from './file-pickers';
import { browserPeerVersion } from './peer-version';
import { randomBytes } from './random-bytes';
import { ReceiveTransfer } from './receive-transfer';
import { SaveChoice } from './save-choice';
import { SendTransfer } from './send-transfer';
import { findSignalingAddress } from './signaling-address';
import type { SourceItem } from './source-files';
import { StreamedDownloads } from './streamed-downloads';
import { textMessageProblem } from '../../../src-shared/session/text-message';
import { errorMessage } from '../../../src-shared/format/error-message';
import { refused } from '../../../src-shared/app/app-errors';

/** What the page needs to know about where it runs. */
export interface BrowserPage {
  /** The page's origin, where GET /api/config is asked. */
  origin: string;
  /** The web client's own address, without any `#receive=` fragment: what a QR code links to. */
  href: string;
}

function currentPage(): BrowserPage {
  const { origin, href } = window.location;
  return { origin, href: href.replace(/#.*$/, '') };
}

/**
 * The web client: the same screens as the desktop app, with the browser's own WebRTC, the event
 * socket for signaling, and the browser's storage for what arrives.
 */
export function createBrowserBackend(page: BrowserPage = currentPage()): FerryBackend {
  const listeners = new Set<(event: BackendEvent) => void>();
  const sources = new Map<string, SourceItem>();
  const saving = new SaveChoice(StreamedDownloads.register());
  let signalingAddress: Promise<string> | undefined;
  let transfer: SendTransfer | ReceiveTransfer | undefined;
  let view: TransferView = IDLE_TRANSFER;
  let settings: FerrySettings = {
    serverUrl: page.origin,
    downloadFolder: '',
    reportStats: true,
    keepHistory: true,
    confirmWords: false,
    // A page never accepts unasked (`autoAcceptFromDevices` is false): the cap is never used.
    autoAcceptMaxBytes: AUTO_ACCEPT_DEFAULT_MAX_BYTES,
  };
  // The remembered devices, read from IndexedDB once; every session looks a peer up in the list
  // as it stands when the peer connects, so a device remembered or forgotten later counts.
  let remembered: RememberedDevice[] = [];
  const loaded = loadRememberedDevices().then((stored) => {
    remembered = stored ?? [];
  });
  const devices: DeviceSetting = {
    ownName: BROWSER_DEVICE_NAME,
    directory: { find: (fingerprint) => remembered.find((d) => d.fingerprint === fingerprint) },
  };
  const devicesView = (): DevicesView => ({ ownName: BROWSER_DEVICE_NAME, remembered });
  // The history and whether to keep one, read from IndexedDB once.
  let history: HistoryEntry[] = [];
  const historyLoaded = Promise.all([loadHistory(), loadKeepHistory(), loadConfirmWords()]).then(
    ([stored, keep, confirmWords]) => {
      history = stored ?? [];
      settings = { ...settings, keepHistory: keep, confirmWords };
    },
  );
  // One change at a time, each on the list as IndexedDB holds it then (another tab may add too).
  let historyWrites: Promise<unknown> = Promise.resolve();

  const emit = (event: BackendEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };
  const warn = (message: string): void => emit({ type: 'warning', message });

  function publishFor(owner: SendTransfer | ReceiveTransfer) {
    return (next: TransferView): void => {
      // A transfer that was left keeps running its teardown but no longer owns the screen.
      if (transfer !== owner) return;
      const finished = next.phase === 'done' && view.phase !== 'done';
      view = next;
      emit({ type: 'transfer', transfer: next });
      if (finished && settings.keepHistory) {
        const id = Array.from(randomBytes(16), (byte) => byte.toString(16).padStart(2, '0'));
        void changeHistory((list) => addEntry(list, entryFromDone(next, Date.now(), id.join(''))));
      }
    };
  }

  /** Applies a change to the history, stores it and announces the result. */
  function changeHistory(
    change: (list: readonly HistoryEntry[]) => HistoryEntry[],
  ): Promise<HistoryEntry[]> {
    const changed = historyWrites.then(async () => {
      await historyLoaded;
      const next = change((await loadHistory()) ?? history);
      await saveHistory(next);
      history = next;
      emit({ type: 'history', history });
      return history;
    });
    historyWrites = changed.catch(() => undefined);
    return changed;
  }

  function goIdle(): void {
    transfer = undefined;
    view = IDLE_TRANSFER;
    emit({ type: 'transfer', transfer: view });
  }

  async function address(): Promise<string> {
    signalingAddress ??= findSignalingAddress(page.origin);
    const found = await signalingAddress;
    if (settings.serverUrl !== found) {
      settings = { ...settings, serverUrl: found };
      emit({ type: 'settings', settings });
    }
    return found;
  }

  function remember(items: SourceItem[]): SelectedItem[] {
    for (const source of items) sources.set(source.item.id, source);
    return items.map((source) => source.item);
  }

  async function chosen(picking: Promise<SourceItem[]>): Promise<BackendResult<SelectedItem[]>> {
    try {
      return ok(remember(await picking));
    } catch (error) {
      return refused('ERR_FILES_UNREADABLE', errorMessage(error));
    }
  }

  /**
   * Applies a change to the list as IndexedDB holds it now (another tab of this site may have
   * changed it; this page's own list where IndexedDB is unavailable), then stores and announces
   * the result.
   */
  async function changeDevices(
    change: (list: readonly RememberedDevice[]) => RememberedDevice[],
  ): Promise<BackendResult<DevicesView>> {
    await loaded;
    let next: RememberedDevice[];
    try {
      next = change((await loadRememberedDevices()) ?? remembered);
    } catch (error) {
      return refused('ERR_DEVICE_LIST', errorMessage(error));
    }
    await saveRememberedDevices(next);
    remembered = next;
    const current = devicesView();
    emit({ type: 'devices', devices: current });
    return ok(current);
  }

  const busy = (): boolean =>
    view.phase !== 'idle' && view.phase !== 'done' && view.phase !== 'failed';
  const refuseBusy = (): BackendResult<never> => refused('ERR_BUSY');

  /** Starts a transfer as the one on screen, leaving a finished one behind. */
  function begin(next: SendTransfer | ReceiveTransfer): void {
    transfer?.dispose();
    transfer = next;
    void next.run();
  }

  return {
    surface: 'browser',
    capabilities: {
      lanRoom: false,
      chooseDestination: saving.canChooseFolder,
      // Downloads and memory cannot pick up a file again; only a chosen folder can.
      defaultDestinationResumes: false,
      revealFiles: false,
      settings: false,
      autoAcceptFromDevices: false,
    },
    webClientUrl: page.href,

    async snapshot() {
      await Promise.all([address(), loaded, historyLoaded]);
      return ok({
        transfer: view,
        lanRoom: { state: 'off' },
        discoveredRooms: [],
        settings,
        devices: devicesView(),
        history,
        opened: Promise.resolve(ok([])),
      });
    },

    subscribe(listener, signal) {
      if (signal.aborted) return ok(null);
      listeners.add(listener);
      signal.addEventListener('abort', () => listeners.delete(listener), { once: true });
      return ok(null);
    },

    addDropped(data) {
      // Read before the first await: the browser empties the DataTransfer after the drop event.
      const entries = entriesOf(data);
      if (entries.length === 0) {
        return Promise.resolve(refused('ERR_NOTHING_DROPPED'));
      }
      return chosen(itemsFromEntries(entries));
    },
    pickFiles: () => chosen(pickFiles()),
    pickFolder: () => chosen(pickFolder()),

    async startSend(items) {
      if (busy()) return refuseBusy();
      const files = [];
      for (const item of items) {
        const source = sources.get(item.id);
        if (source === undefined) {
          return refused('ERR_UNKNOWN_ITEM', item.name);
        }
        files.push(...source.files);
      }
      if (files.length === 0) return refused('ERR_NOTHING_TO_SEND');
      await loaded;
      const next = new SendTransfer({
        signalingAddress: await address(),
        local: browserPeerVersion(),
        files,
        devices,
        confirmWords: settings.confirmWords,
        publish: (view) => publishFor(next)(view),
        warn,
      });
      begin(next);
      return ok(null);
    },

    async startSendText(text) {
      if (busy()) return refuseBusy();
      const problem = textMessageProblem(text);
      if (problem !== undefined) return refused('ERR_TEXT_REFUSED', problem);
      await loaded;
      const next = new SendTransfer({
        signalingAddress: await address(),
        local: browserPeerVersion(),
        files: [],
        text,
        devices,
        confirmWords: settings.confirmWords,
        publish: (view) => publishFor(next)(view),
        warn,
      });
      begin(next);
      return ok(null);
    },

    async startReceive(code, key) {
      if (busy()) return refuseBusy();
      await loaded;
      const next = new ReceiveTransfer({
        signalingAddress: await address(),
        local: browserPeerVersion(),
        code,
        devices,
        ...(key === undefined ? {} : { linkSecret: key }),
        saving,
        reportStats: settings.reportStats,
        confirmWords: settings.confirmWords,
        publish: (view) => publishFor(next)(view),
        warn,
      });
      begin(next);
      return ok(null);
    },

    async answerOffer(accept, destination, packing) {
      if (!(transfer instanceof ReceiveTransfer) || view.phase !== 'awaiting-acceptance') {
        return refused('ERR_NO_OFFER');
      }
      if (transfer.wordsAsked) {
        if (!accept) {
          transfer.answerWords(false);
          return ok(null);
        }
        return refused('ERR_WORDS_NOT_COMPARED');
      }
      await transfer.answer(accept, destination, packing);
      return ok(null);
    },

    async answerWords(match) {
      if (transfer === undefined || !transfer.answerWords(match)) {
        return refused('ERR_NO_WORDS_QUESTION');
      }
      return ok(null);
    },

    chooseDownloadFolder: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'asks-each-time')),

    async chooseDestination() {
      try {
        return ok(await saving.chooseFolder());
      } catch (error) {
        return refused('ERR_NO_FOLDER_ACCESS', errorMessage(error));
      }
    },

    async cancel() {
      const current = transfer;
      if (current instanceof SendTransfer) {
        if (current.cancel()) goIdle();
      } else current?.cancel();
      return ok(null);
    },

    async dismiss() {
      transfer?.dispose();
      goIdle();
      return ok(null);
    },

    async updateSettings(changes) {
      await historyLoaded;
      settings = { ...settings, ...changes };
      if (changes.keepHistory !== undefined) await saveKeepHistory(changes.keepHistory);
      if (changes.confirmWords !== undefined) await saveConfirmWords(changes.confirmWords);
      emit({ type: 'settings', settings });
      // A history turned off keeps nothing, not even what it held.
      if (changes.keepHistory === false) await changeHistory(clearedHistory);
      return ok(settings);
    },
    setLanRoom: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'no-lan-room')),
    openFolder: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'downloads-only')),
    revealFile: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'downloads-only')),

    async rememberPeer(name) {
      const peer = view.phase === 'done' ? view.peer : undefined;
      if (peer === undefined || peer.check.kind === 'unverified') {
        return refused('ERR_NOT_VERIFIED');
      }
      return changeDevices((list) => rememberDevice(list, peer.fingerprint, name, Date.now()));
    },
    renameDevice: (fingerprint, name) => changeDevices((list) => rename(list, fingerprint, name)),
    forgetDevice: (fingerprint) => changeDevices((list) => forget(list, fingerprint)),
    setDeviceAutoAccept: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'always-asks')),

    clearHistory: async () => ok(await changeHistory(clearedHistory)),
  };
}
