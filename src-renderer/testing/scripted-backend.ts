import { AUTO_ACCEPT_DEFAULT_MAX_BYTES } from '../../src-shared/devices/auto-accept';
import {
  DeviceListError,
  forget,
  remember,
  rename,
  setAutoAccept,
  type RememberedDevice,
} from '../../src-shared/devices/remembered-devices';
import { ok } from '../../src-shared/ipc/result';
import { refused } from '../../src-shared/app/app-errors';
import { DESKTOP_CAPABILITIES } from '../backend/desktop-backend';
import { IDLE_TRANSFER, type TransferView } from '../../src-shared/transfer/transfer-view';
import { NO_NEARBY } from '../../src-shared/app/nearby-core';
import type {
  BackendCapabilities,
  BackendEvent,
  BackendResult,
  BackendSnapshot,
  DevicesView,
  FerryBackend,
  FerrySettings,
  HistoryEntry,
  LanRoomView,
  SelectedItem,
  Surface,
} from '../backend/ferry-backend';

type ActionName = Exclude<
  keyof FerryBackend,
  'surface' | 'capabilities' | 'webClientUrl' | 'snapshot' | 'subscribe'
>;
type ActionResult<K extends ActionName> = Awaited<ReturnType<FerryBackend[K]>>;

interface Call {
  action: ActionName;
  args: unknown[];
}

/** A backend whose answers the test writes, standing in for main or the browser peer. */
export interface ScriptedBackend extends FerryBackend {
  readonly calls: Call[];
  /** Every later call of `action` resolves to `result`. */
  respond<K extends ActionName>(action: K, result: ActionResult<K>): void;
  /** The next call of `action` waits until the returned function is called with its result. */
  hold<K extends ActionName>(action: K): (result: ActionResult<K>) => void;
  /** Pushes an update as the backend would. */
  emit(event: BackendEvent): void;
  callsOf(action: ActionName): unknown[][];
}

export const TEST_SETTINGS: FerrySettings = {
  serverUrl: 'https://ferry.example',
  downloadFolder: '/home/ana/Downloads',
  reportStats: true,
  keepHistory: true,
  confirmWords: false,
  autoAcceptMaxBytes: AUTO_ACCEPT_DEFAULT_MAX_BYTES,
  lanRoomHttps: false,
};

export const TEST_DEVICES: DevicesView = { ownName: 'Ana desktop', remembered: [] };

/** A remembered device as tests write one. */
export function testDevice(name: string, fingerprint: string, rememberedAt = 0): RememberedDevice {
  return { fingerprint, name, autoAccept: false, rememberedAt };
}

export const LAN_URL = 'http://192.168.1.20:3001';

export interface ScriptedBackendOptions {
  surface?: Surface;
  capabilities?: Partial<BackendCapabilities>;
  webClientUrl?: string;
  /** The snapshot's fields, `opened` as what it settles to. */
  snapshot?: Partial<Omit<BackendSnapshot, 'opened'>> & { opened?: BackendResult<SelectedItem[]> };
  /** Replaces the whole snapshot answer, for start-up failures. */
  snapshotResult?: BackendResult<BackendSnapshot>;
  subscribeResult?: BackendResult<null>;
}

export function createScriptedBackend(options: ScriptedBackendOptions = {}): ScriptedBackend {
  const calls: Call[] = [];
  const answers = new Map<ActionName, unknown>();
  const held = new Map<ActionName, Promise<unknown>>();
  const listeners = new Set<(event: BackendEvent) => void>();
  let settings: FerrySettings = options.snapshot?.settings ?? TEST_SETTINGS;
  let devices: DevicesView = options.snapshot?.devices ?? TEST_DEVICES;
  let history: HistoryEntry[] = options.snapshot?.history ?? [];
  /** The transfer on screen, as the snapshot and later events gave it. */
  let transfer: TransferView = options.snapshot?.transfer ?? IDLE_TRANSFER;

  /** What a device-list change gives, applied to the scripted list as the real backends do. */
  function changeDevices(
    change: (list: readonly RememberedDevice[]) => RememberedDevice[],
  ): BackendResult<DevicesView> {
    try {
      devices = { ...devices, remembered: change(devices.remembered) };
      return ok(devices);
    } catch (error) {
      if (!(error instanceof DeviceListError)) throw error;
      return refused('ERR_DEVICE_LIST', error.message);
    }
  }

  function answer<K extends ActionName>(
    action: K,
    args: unknown[],
    fallback: () => ActionResult<K>,
  ): Promise<ActionResult<K>> {
    calls.push({ action, args });
    const waiting = held.get(action);
    if (waiting) {
      held.delete(action);
      return waiting as Promise<ActionResult<K>>;
    }
    const given = answers.get(action) as ActionResult<K> | undefined;
    return Promise.resolve(given ?? fallback());
  }

  const noItems = (): BackendResult<SelectedItem[]> => ok([]);
  const done = (): BackendResult<null> => ok(null);

  return {
    surface: options.surface ?? 'desktop',
    capabilities: { ...DESKTOP_CAPABILITIES, ...options.capabilities },
    webClientUrl: options.webClientUrl,
    calls,

    snapshot: () => {
      if (options.snapshotResult) return Promise.resolve(options.snapshotResult);
      const { opened = ok([]), ...state } = options.snapshot ?? {};
      return Promise.resolve(
        ok({
          transfer: IDLE_TRANSFER,
          lanRoom: { state: 'off' },
          discoveredRooms: [],
          nearby: NO_NEARBY,
          ...state,
          settings,
          devices,
          history,
          opened: Promise.resolve(opened),
        }),
      );
    },
    subscribe(listener, signal) {
      if (options.subscribeResult && !options.subscribeResult.ok) return options.subscribeResult;
      listeners.add(listener);
      signal.addEventListener('abort', () => listeners.delete(listener), { once: true });
      return ok(null);
    },

    addDropped: (data) => answer('addDropped', [data], noItems),
    pickFiles: () => answer('pickFiles', [], noItems),
    pickFolder: () => answer('pickFolder', [], noItems),
    startSend: (items, to) => answer('startSend', to === undefined ? [items] : [items, to], done),
    startSendText: (text) => answer('startSendText', [text], done),
    startSendNearby: (key, batch) => answer('startSendNearby', [key, batch], done),
    startReceive: (code, key) =>
      answer('startReceive', key === undefined ? [code] : [code, key], done),
    answerOffer: (accept, destination, packing) =>
      answer(
        'answerOffer',
        packing === undefined ? [accept, destination] : [accept, destination, packing],
        done,
      ),
    answerWords: (match) => answer('answerWords', [match], done),
    chooseDestination: () => answer('chooseDestination', [], () => ok(null)),
    chooseDownloadFolder: () => answer('chooseDownloadFolder', [], () => ok(null)),
    cancel: () => answer('cancel', [], done),
    dismiss: () => answer('dismiss', [], done),
    updateSettings: (changes) =>
      answer('updateSettings', [changes], () => {
        settings = { ...settings, ...changes };
        if (changes.keepHistory === false) history = [];
        return ok(settings);
      }),
    setLanRoom: (enabled) =>
      answer('setLanRoom', [enabled], () =>
        ok<LanRoomView>(enabled ? { state: 'on', url: LAN_URL } : { state: 'off' }),
      ),
    openFolder: (path) => answer('openFolder', [path], done),
    revealFile: (path) => answer('revealFile', [path], done),
    rememberPeer: (name) =>
      answer('rememberPeer', [name], () => {
        const peer = transfer.phase === 'done' ? transfer.peer : undefined;
        if (peer === undefined || peer.check.kind === 'unverified') {
          return refused('ERR_NOT_VERIFIED');
        }
        return changeDevices((list) => remember(list, peer.fingerprint, name, 1_700_000_000_000));
      }),
    renameSelf: (name) =>
      answer('renameSelf', [name], () => {
        devices = { ...devices, ownName: name };
        return ok(devices);
      }),
    renameDevice: (fingerprint, name) =>
      answer('renameDevice', [fingerprint, name], () =>
        changeDevices((list) => rename(list, fingerprint, name)),
      ),
    forgetDevice: (fingerprint) =>
      answer('forgetDevice', [fingerprint], () =>
        changeDevices((list) => forget(list, fingerprint)),
      ),
    setDeviceAutoAccept: (fingerprint, on) =>
      answer('setDeviceAutoAccept', [fingerprint, on], () =>
        changeDevices((list) => setAutoAccept(list, fingerprint, on)),
      ),
    clearHistory: () =>
      answer('clearHistory', [], () => {
        history = [];
        return ok(history);
      }),

    respond(action, result) {
      answers.set(action, result);
    },
    hold<K extends ActionName>(action: K) {
      let release: (result: ActionResult<K>) => void = () => undefined;
      held.set(action, new Promise<ActionResult<K>>((resolve) => (release = resolve)));
      return (result: ActionResult<K>) => release(result);
    },
    emit(event) {
      if (event.type === 'transfer') transfer = event.transfer;
      if (event.type === 'devices') devices = event.devices;
      if (event.type === 'history') history = event.history;
      for (const listener of listeners) listener(event);
    },
    callsOf: (action) => calls.filter((call) => call.action === action).map((call) => call.args),
  };
}
