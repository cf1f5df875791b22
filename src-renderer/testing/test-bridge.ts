import {
  INVOKE_CHANNELS,
  type DevicesView,
  type EventChannel,
  type EventContract,
  type FerryBridge,
  type HandlerMap,
  type SendItem,
} from '../../src-shared/ipc/contract';
import { dispatchInvoke } from '../../src-shared/ipc/dispatch';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { TEST_SETTINGS } from './scripted-backend';
import { NO_NEARBY } from '../../src-shared/app/nearby-core';

/** A file as main describes it: 10 bytes, named after the end of its path. */
export const described = (path: string): SendItem => ({
  path,
  name: path.split('/').pop() ?? path,
  size: 10,
  isDirectory: false,
  fileCount: 1,
});

/** A certificate fingerprint as main shows it. */
export const TEST_FINGERPRINT = `sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`;

/** What main answers about devices unless a test says otherwise: nothing remembered yet. */
export const TEST_DEVICES: DevicesView = { ownName: 'Ana’s laptop', remembered: [] };

/** An IPC message crosses from one process to the other: it arrives as a task of its own. */
const asTask = <T>(value: () => T | Promise<T>): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value())));

/**
 * The preload's bridge as the renderer sees it, over the real request validation and dispatch
 * that main runs; only Electron's transport is missing. `crossProcess`: each request and each
 * answer arrives as a task of its own, as between two processes.
 */
export function testBridge(overrides: Partial<HandlerMap> = {}, { crossProcess = false } = {}) {
  const requests: { channel: string; request: unknown }[] = [];
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const handlers: HandlerMap = {
    getSnapshot: async () => ({
      transfer: IDLE_TRANSFER,
      lanRoom: { state: 'off' },
      discoveredRooms: [],
      settings: TEST_SETTINGS,
      devices: TEST_DEVICES,
      history: [],
      pendingPaths: [],
      nearby: NO_NEARBY,
    }),
    describePaths: async ({ paths }) => paths.map(described),
    pickFiles: async () => [described('/home/ana/a.txt')],
    pickFolder: async () => [],
    chooseDownloadFolder: async () => ({ ...TEST_SETTINGS, downloadFolder: '/media/usb' }),
    chooseDestination: async () => '/media/usb',
    startSend: async () => null,
    startSendText: async () => null,
    startSendNearby: async () => null,
    startReceive: async () => null,
    answerOffer: async () => null,
    answerWords: async () => null,
    cancelTransfer: async () => null,
    dismissTransfer: async () => null,
    updateSettings: async (change) => ({ ...TEST_SETTINGS, ...change }),
    setLanRoom: async ({ enabled }) =>
      enabled ? { state: 'on', url: 'http://10.0.0.2:3001' } : { state: 'off' },
    openFolder: async () => null,
    revealFile: async () => null,
    rememberPeer: async ({ name }) => ({
      ...TEST_DEVICES,
      remembered: [
        {
          fingerprint: TEST_FINGERPRINT,
          name,
          autoAccept: false,
          rememberedAt: 0,
        },
      ],
    }),
    renameDevice: async () => TEST_DEVICES,
    renameSelf: async ({ name }) => ({ ...TEST_DEVICES, ownName: name }),
    forgetDevice: async () => TEST_DEVICES,
    setDeviceAutoAccept: async () => TEST_DEVICES,
    clearHistory: async () => [],
    ...overrides,
  };
  const dispatch = (channel: string, request: unknown) =>
    dispatchInvoke(handlers, channel, request, () => undefined);
  const invoke = Object.fromEntries(
    INVOKE_CHANNELS.map((channel) => [
      channel,
      async (request: unknown) => {
        requests.push({ channel, request });
        if (!crossProcess) return dispatch(channel, request);
        const answer = await asTask(() => dispatch(channel, request));
        return asTask(() => answer);
      },
    ]),
  ) as FerryBridge['invoke'];
  const bridge: FerryBridge = {
    invoke,
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(channel, set);
      return () => set.delete(listener as (payload: never) => void);
    },
    pathForFile: (file) => (file.name.startsWith('text:') ? '' : `/home/ana/${file.name}`),
  };
  const emit = <K extends EventChannel>(channel: K, payload: EventContract[K]): void => {
    for (const listener of listeners.get(channel) ?? [])
      (listener as (p: typeof payload) => void)(payload);
  };
  return { bridge, requests, emit };
}
