import type {
  FerryBridge,
  InvokeChannel,
  RequestOf,
  ResponseOf,
  SendItem,
} from '../../src-shared/ipc/contract';
import { ok } from '../../src-shared/ipc/result';
import type {
  BackendCapabilities,
  BackendResult,
  FerryBackend,
  SelectedItem,
} from './ferry-backend';
import { errorMessage } from '../../src-shared/format/error-message';
import { refused } from '../../src-shared/app/app-errors';

/** Everything the desktop app can do that a browser may not. */
export const DESKTOP_CAPABILITIES: BackendCapabilities = {
  lanRoom: true,
  chooseDestination: true,
  defaultDestinationResumes: true,
  revealFiles: true,
  settings: true,
  autoAcceptFromDevices: true,
  plainHttpLimits: [],
};

const bridgeFailure = (error: unknown): BackendResult<never> =>
  refused('ERR_BRIDGE', errorMessage(error));

const toSelected = (item: SendItem): SelectedItem => ({
  id: item.path,
  name: item.name,
  size: item.size,
  isDirectory: item.isDirectory,
  fileCount: item.fileCount,
});

/** The desktop app: every action is one request over the preload's typed bridge. */
export function createDesktopBackend(bridge: FerryBridge): FerryBackend {
  // The preload forwards to ipcRenderer.invoke, which rejects when main has no handler.
  async function request<K extends InvokeChannel>(
    channel: K,
    payload: RequestOf<K>,
  ): Promise<BackendResult<ResponseOf<K>>> {
    try {
      return await bridge.invoke[channel](payload);
    } catch (error) {
      return bridgeFailure(error);
    }
  }

  async function describe(paths: string[]): Promise<BackendResult<SelectedItem[]>> {
    if (paths.length === 0) return ok([]);
    const described = await request('describePaths', { paths });
    return described.ok ? ok(described.value.map(toSelected)) : described;
  }

  async function picked(
    channel: 'pickFiles' | 'pickFolder',
  ): Promise<BackendResult<SelectedItem[]>> {
    const result = await request(channel, {});
    return result.ok ? ok(result.value.map(toSelected)) : result;
  }

  // The lookup runs in the preload's world; whatever goes wrong there must come back as a value.
  function pathOf(file: File): string {
    try {
      return bridge.pathForFile(file);
    } catch {
      return '';
    }
  }

  return {
    surface: 'desktop',
    capabilities: DESKTOP_CAPABILITIES,

    async snapshot() {
      const result = await request('getSnapshot', {});
      if (!result.ok) return result;
      // Everything else (devices too) goes to the screens as main sent it.
      const { pendingPaths, ...state } = result.value;
      // Not awaited: changes main pushes meanwhile are newer than this state and go on top of it.
      return ok({ ...state, opened: describe(pendingPaths) });
    },

    subscribe(listener, signal) {
      // Listeners check the signal themselves, so nothing is delivered after abort even if a
      // detach is late.
      const whileOpen =
        <T>(deliver: (payload: T) => void) =>
        (payload: T) => {
          if (!signal.aborted) deliver(payload);
        };
      try {
        const detachers = [
          bridge.on(
            'transferState',
            whileOpen((transfer) => listener({ type: 'transfer', transfer })),
          ),
          bridge.on(
            'lanRoomState',
            whileOpen((lanRoom) => listener({ type: 'lan-room', lanRoom })),
          ),
          bridge.on(
            'discoveredRooms',
            whileOpen((rooms) => listener({ type: 'discovered-rooms', rooms })),
          ),
          bridge.on(
            'sendPaths',
            whileOpen(({ paths }) => {
              void describe(paths).then(
                whileOpen((opened) => listener({ type: 'opened', opened })),
              );
            }),
          ),
          bridge.on(
            'transferWarning',
            whileOpen(({ message }) => listener({ type: 'warning', message })),
          ),
          bridge.on(
            'devicesChanged',
            whileOpen((devices) => listener({ type: 'devices', devices })),
          ),
          bridge.on(
            'historyChanged',
            whileOpen((history) => listener({ type: 'history', history })),
          ),
          bridge.on(
            'nearbyChanged',
            whileOpen((nearby) => listener({ type: 'nearby', nearby })),
          ),
        ];
        signal.addEventListener('abort', () => detachers.forEach((detach) => detach()), {
          once: true,
        });
        return ok(null);
      } catch (error) {
        return bridgeFailure(error);
      }
    },

    addDropped(data) {
      // Read before the first await: the browser empties the DataTransfer after the drop event.
      const paths = Array.from(data.files, pathOf).filter((path) => path !== '');
      if (paths.length === 0) {
        return Promise.resolve(refused('ERR_NOTHING_DROPPED'));
      }
      return describe(paths);
    },
    pickFiles: () => picked('pickFiles'),
    pickFolder: () => picked('pickFolder'),

    startSend: (items, to) =>
      request('startSend', {
        paths: items.map((item) => item.id),
        ...(to === undefined ? {} : { to }),
      }),
    startSendText: (text) => request('startSendText', { text }),
    startSendNearby: (key, batch) =>
      request(
        'startSendNearby',
        'items' in batch
          ? { key, paths: batch.items.map((item) => item.id) }
          : { key, text: batch.text },
      ),
    startReceive: (code, key) =>
      request('startReceive', { code, ...(key === undefined ? {} : { key }) }),
    answerOffer: (accept, destination) =>
      request('answerOffer', destination === undefined ? { accept } : { accept, destination }),
    answerWords: (match) => request('answerWords', { match }),
    chooseDestination: () => request('chooseDestination', {}),
    chooseDownloadFolder: () => request('chooseDownloadFolder', {}),
    cancel: () => request('cancelTransfer', {}),
    dismiss: () => request('dismissTransfer', {}),

    updateSettings: (changes) => request('updateSettings', changes),
    setLanRoom: (enabled) => request('setLanRoom', { enabled }),
    openFolder: (path) => request('openFolder', { path }),
    revealFile: (path) => request('revealFile', { path }),

    // Main picks the device from the finished transfer it ran: the window names it, nothing more.
    rememberPeer: (name) => request('rememberPeer', { name }),
    renameDevice: (fingerprint, name) => request('renameDevice', { fingerprint, name }),
    renameSelf: (name) => request('renameSelf', { name }),
    forgetDevice: (fingerprint) => request('forgetDevice', { fingerprint }),
    setDeviceAutoAccept: (fingerprint, autoAccept) =>
      request('setDeviceAutoAccept', { fingerprint, autoAccept }),

    clearHistory: () => request('clearHistory', {}),
  };
}
