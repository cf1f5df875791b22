import {
  forget,
  remember as rememberDevice,
  rename,
  setAutoAccept,
  type RememberedDevice,
} from '../../../src-shared/devices/remembered-devices';
import type { DeviceSetting } from '../../../src-shared/devices/peer-identity';
import {
  addEntry,
  clearedHistory,
  type HistoryEntry,
} from '../../../src-shared/history/transfer-history';
import { ok } from '../../../src-shared/ipc/result';
import { AppCore } from '../../../src-shared/app/app-core';
import { NearbyCore } from '../../../src-shared/app/nearby-core';
import type { OpenPresence } from '../../../src-shared/nearby/nearby-ports';
import { browserClock } from './browser-clock';
import { openBrowserPresence } from './browser-presence';
import { joinBrowserRoom } from './browser-seat';
import { createPairRooms } from '../../../src-shared/nearby/pair-rooms';
import { pairedDevices } from '../../../src-shared/nearby/paired-devices';
import type { SessionStarter } from '../../../src-shared/app/app-ports';
import type {
  BackendEvent,
  BackendResult,
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
import { randomBytes } from './random-bytes';
import { SaveChoice } from './save-choice';
import { browserSessions, type BrowserStart } from './browser-sessions';
import { findSignalingAddress } from './signaling-address';
import type { SourceItem } from './source-files';
import { StreamedDownloads } from './streamed-downloads';
import { pageAbilities, plainHttpLimits } from './page-abilities';
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
export function createBrowserBackend(
  page: BrowserPage = currentPage(),
  sessions?: SessionStarter<BrowserStart>,
): FerryBackend {
  const listeners = new Set<(event: BackendEvent) => void>();
  const sources = new Map<string, SourceItem>();
  const saving = new SaveChoice(StreamedDownloads.register(), !window.isSecureContext);
  let signalingAddress: Promise<string> | undefined;
  let settings: FerrySettings = {
    serverUrl: page.origin,
    downloadFolder: '',
    reportStats: true,
    keepHistory: true,
    confirmWords: false,
    // A page has no Settings screen: its quick save keeps the default cap.
    autoAcceptMaxBytes: AUTO_ACCEPT_DEFAULT_MAX_BYTES,
    lanRoomHttps: false,
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
  // The history and whether to keep one, read from IndexedDB once.
  let history: HistoryEntry[] = [];
  const historyLoaded = Promise.all([loadHistory(), loadKeepHistory(), loadConfirmWords()]).then(
    ([stored, keep, confirmWords]) => {
      history = stored ?? [];
      settings = { ...settings, keepHistory: keep, confirmWords };
    },
  );

  const emit = (event: BackendEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  /**
   * Applies a change to the history as IndexedDB holds it now (another tab may add too) and
   * stores the result; the core makes one change at a time.
   */
  async function changeHistory(
    change: (list: readonly HistoryEntry[]) => HistoryEntry[],
  ): Promise<HistoryEntry[]> {
    await historyLoaded;
    const next = change((await loadHistory()) ?? history);
    await saveHistory(next);
    history = next;
    return history;
  }

  /**
   * Applies a change to the list as IndexedDB holds it now (another tab of this site may have
   * changed it; this page's own list where IndexedDB is unavailable), then stores the result.
   */
  async function changeDevices(
    change: (list: readonly RememberedDevice[]) => RememberedDevice[],
  ): Promise<void> {
    await loaded;
    const next = change((await loadRememberedDevices()) ?? remembered);
    await saveRememberedDevices(next);
    remembered = next;
    // Remembered, renamed or forgotten: the pair rooms follow (a forgotten one is left for good).
    nearby.paired(pairedDevices(remembered));
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

  // The rules of the transfer on screen live in the core; this backend only translates
  // (docs/architecture.md, "The application core").
  const core = new AppCore<BrowserStart>({
    sessions:
      sessions ??
      browserSessions({
        sources,
        signalingAddress: address,
        devices: () => loaded.then(() => devices),
        settings: () => settings,
        saving,
      }),
    history: {
      keeping: () => settings.keepHistory,
      list: () => history,
      add: (entry) => changeHistory((list) => addEntry(list, entry)),
      clear: () => changeHistory(clearedHistory),
      newId: () =>
        Array.from(randomBytes(16), (byte) => byte.toString(16).padStart(2, '0')).join(''),
    },
    devices: {
      ownName: () => BROWSER_DEVICE_NAME,
      list: () => remembered,
      remember: (fingerprint, name, pairSecret) =>
        changeDevices((list) => rememberDevice(list, fingerprint, name, Date.now(), pairSecret)),
      rename: (fingerprint, name) => changeDevices((list) => rename(list, fingerprint, name)),
      forget: (fingerprint) => changeDevices((list) => forget(list, fingerprint)),
      setAutoAccept: (fingerprint, autoAccept) =>
        changeDevices((list) => setAutoAccept(list, fingerprint, autoAccept)),
    },
    notify: {
      transfer: (transfer) => emit({ type: 'transfer', transfer }),
      warning: (message) => emit({ type: 'warning', message }),
      history: (entries) => emit({ type: 'history', history: [...entries] }),
      devices: (view) => emit({ type: 'devices', devices: view }),
    },
    clock: { now: () => Date.now() },
  });

  // The page on its server's roster, and in the pair rooms of its remembered devices, while it is
  // open (docs/architecture.md, "Nearby devices"). An invitation becomes a receive of its room.
  const openPresence: OpenPresence = async (intro, cancelled) =>
    openBrowserPresence(await address())(intro, cancelled);
  const nearby = new NearbyCore(
    {
      openPresence,
      pairRooms: createPairRooms({
        joinRoom: async (roomId, cancelled) => joinBrowserRoom(await address(), roomId, cancelled),
        clock: browserClock,
      }),
      intro: { name: BROWSER_DEVICE_NAME, kind: 'browser' },
      clock: browserClock,
      busy: () => core.busy,
    },
    {
      view: (view) => emit({ type: 'nearby', nearby: view }),
      invited: ({ roomId, expectPeer }) =>
        void core.start({
          kind: 'receive',
          code: '',
          roomId,
          ...(expectPeer === undefined ? {} : { from: expectPeer }),
        }),
    },
  );
  // Not waited for: the screens are ready before the roster answers, and the list follows.
  void nearby.start();
  void loaded.then(() => nearby.paired(pairedDevices(remembered)));

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

  return {
    surface: 'browser',
    capabilities: {
      lanRoom: false,
      chooseDestination: saving.canChooseFolder,
      // Downloads and memory cannot pick up a file again; only a chosen folder can.
      defaultDestinationResumes: false,
      revealFiles: false,
      settings: false,
      // Quick save goes only into a chosen folder (quick-save.ts): none here, no quick save.
      autoAcceptFromDevices: saving.canChooseFolder,
      plainHttpLimits: plainHttpLimits(pageAbilities()),
    },
    webClientUrl: page.href,

    async snapshot() {
      await Promise.all([address(), loaded, historyLoaded]);
      return ok({
        transfer: core.view,
        nearby: nearby.view,
        lanRoom: { state: 'off' },
        discoveredRooms: [],
        settings,
        devices: core.devicesView(),
        history: core.history(),
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
      if (entries.length === 0) return Promise.resolve(refused('ERR_NOTHING_DROPPED'));
      return chosen(itemsFromEntries(entries));
    },
    pickFiles: () => chosen(pickFiles()),
    pickFolder: () => chosen(pickFolder()),

    startSend: async (items, to) => {
      if (to === undefined) return core.start({ kind: 'send', items });
      const pinned = core.pinnedPeer(to);
      return 'code' in pinned
        ? { ok: false, error: pinned }
        : core.start({ kind: 'send', items, to: pinned });
    },
    startSendText: (text) => core.start({ kind: 'text', text }),
    startSendNearby: async (key, batch) => {
      const reach = nearby.reachFor(key);
      if ('code' in reach) return { ok: false, error: reach };
      return core.start(
        'items' in batch
          ? { kind: 'send', items: batch.items, reach }
          : { kind: 'text', text: batch.text, reach },
      );
    },
    startReceive: (code, key) =>
      core.start({ kind: 'receive', code, ...(key === undefined ? {} : { key }) }),
    answerOffer: (accept, destination, packing) => core.answerOffer(accept, destination, packing),
    answerWords: async (match) => core.answerWords(match),

    chooseDownloadFolder: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'asks-each-time')),

    async chooseDestination() {
      try {
        return ok(await saving.chooseFolder());
      } catch (error) {
        return refused('ERR_NO_FOLDER_ACCESS', errorMessage(error));
      }
    },

    cancel: async () => core.cancel(),
    dismiss: async () => core.dismiss(),

    async updateSettings(changes) {
      await historyLoaded;
      settings = { ...settings, ...changes };
      if (changes.keepHistory !== undefined) await saveKeepHistory(changes.keepHistory);
      if (changes.confirmWords !== undefined) await saveConfirmWords(changes.confirmWords);
      emit({ type: 'settings', settings });
      if (changes.keepHistory !== undefined) await core.keepHistoryChanged(changes.keepHistory);
      return ok(settings);
    },
    setLanRoom: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'no-lan-room')),
    openFolder: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'downloads-only')),
    revealFile: () => Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'downloads-only')),

    rememberPeer: (name) => core.rememberPeer(name),
    renameDevice: (fingerprint, name) => core.renameDevice(fingerprint, name),
    forgetDevice: (fingerprint) => core.forgetDevice(fingerprint),
    // Unlike the desktop's main process, nothing here guards the page from itself: the person's
    // tick is the whole decision, with no second question.
    setDeviceAutoAccept: (fingerprint, autoAccept) =>
      saving.canChooseFolder
        ? core.setDeviceAutoAccept(fingerprint, autoAccept)
        : Promise.resolve(refused('ERR_NOT_IN_BROWSER', 'always-asks')),

    clearHistory: async () => ok([...(await core.clearHistory())]),
  };
}
