import { join } from 'node:path';
import type {
  DesktopSettings,
  DiscoveredRoom,
  EventChannel,
  EventContract,
  HandlerMap,
} from '../../src-shared/ipc/contract';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';
import type { EngineTimeouts, PeerOptions } from '../engine';
import { browseRooms, type RoomBrowser } from '../lan/room-browser';
import { describePaths } from './describe-paths';
import type { DesktopDialogs, DesktopShell } from './desktop-ports';
import { LanRoomHost } from './lan-room-host';
import { openSettingsStore } from './settings-store';
import { TransferSession } from './transfer-session';

export interface DesktopControllerOptions {
  /** settings.json lives here. */
  userDataDir: string;
  defaultDownloadFolder: string;
  /** Default FERRY_SERVER, else the local signaling server's usual address. */
  defaultServerUrl?: string;
  /** The built renderer, served to browsers while a LAN room is on. */
  webClientRoot: string;
  /** The release string sent on the wire: `desktop-v<semver>`, or `dev`. */
  version: string;
  dialogs: DesktopDialogs;
  desktopShell: DesktopShell;
  /** Watch the network for other Ferry apps' LAN rooms. Default true. */
  discoverRooms?: boolean;
  /** Where to host a LAN room; default the best LAN address. Tests pin loopback. */
  lanAddress?: string;
  /** Tests shorten the engine's deadlines. */
  timeouts?: Partial<EngineTimeouts>;
}

export type EventListener = <K extends EventChannel>(channel: K, payload: EventContract[K]) => void;

export interface DesktopController {
  readonly handlers: HandlerMap;
  onEvent(listener: EventListener): () => void;
  /** Files handed to the app at launch or later ("Open with", a second launch, a dock drop). */
  openPaths(paths: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * Everything the desktop app does, behind the IPC contract's handler map. It has no Electron
 * import: the shell passes dialogs and shell actions in, and the e2e bridge passes its own.
 */
export async function createDesktopController(
  options: DesktopControllerOptions,
): Promise<DesktopController> {
  const listeners = new Set<EventListener>();
  const emit: EventListener = (channel, payload) => {
    for (const listener of listeners) listener(channel, payload);
  };

  const defaults: DesktopSettings = {
    serverUrl:
      options.defaultServerUrl ??
      process.env.FERRY_SERVER ??
      `http://localhost:${DEFAULT_SIGNALING_PORT}`,
    downloadFolder: options.defaultDownloadFolder,
    reportStats: true,
    autoAccept: false,
  };
  const settings = await openSettingsStore(join(options.userDataDir, 'settings.json'), defaults);
  const session = new TransferSession((view) => emit('transferState', view));
  const lanRoom = new LanRoomHost({
    webClientRoot: options.webClientRoot,
    address: options.lanAddress,
    publish: (view) => emit('lanRoomState', view),
  });
  let discovered: DiscoveredRoom[] = [];
  let browser: RoomBrowser | undefined;
  if (options.discoverRooms ?? true) {
    // A network without multicast simply finds no rooms; typing an address still works.
    browser = await browseRooms({
      onRooms: (rooms) => {
        discovered = rooms.map(({ name, url }) => ({ name, url }));
        emit('discoveredRooms', discovered);
      },
    }).catch(() => undefined);
  }
  let pendingPaths: string[] = [];

  // While this device hosts a LAN room, its own transfers meet there and stay on the LAN.
  const peerOptions = (): PeerOptions => {
    const roomUrl = lanRoom.url;
    return {
      serverUrl: roomUrl ?? settings.get().serverUrl,
      route: roomUrl ? 'host-only' : 'any',
      ver: options.version,
      remedySurface: 'desktop',
      timeouts: options.timeouts,
    };
  };

  const handlers: HandlerMap = {
    getSnapshot: async () => {
      const snapshot = {
        transfer: session.view,
        lanRoom: lanRoom.view,
        discoveredRooms: discovered,
        settings: settings.get(),
        pendingPaths,
      };
      pendingPaths = [];
      return snapshot;
    },
    describePaths: ({ paths }) => describePaths(paths),
    pickFiles: async () => describePaths(await options.dialogs.pickFiles()),
    pickFolder: async () => describePaths(await options.dialogs.pickFolder()),
    chooseDownloadFolder: () => options.dialogs.pickDownloadFolder(),
    startSend: async ({ paths }) => {
      session.startSend(paths, peerOptions());
      return null;
    },
    startReceive: async ({ code }) => {
      const { downloadFolder, autoAccept, reportStats } = settings.get();
      session.startReceive(
        { code, destination: downloadFolder, autoAccept, reportBytes: reportStats },
        peerOptions(),
      );
      return null;
    },
    answerOffer: async ({ accept, destination }) => {
      session.answerOffer(accept, destination);
      return null;
    },
    cancelTransfer: async () => {
      session.cancel();
      return null;
    },
    dismissTransfer: async () => {
      session.dismiss();
      return null;
    },
    updateSettings: (change) => settings.update(change),
    setLanRoom: ({ enabled }) => lanRoom.set(enabled),
    openFolder: async ({ path }) => {
      await options.desktopShell.openFolder(path);
      return null;
    },
    revealFile: async ({ path }) => {
      options.desktopShell.revealFile(path);
      return null;
    },
    openExternal: async ({ url }) => {
      await options.desktopShell.openExternal(url);
      return null;
    },
  };

  return {
    handlers,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    openPaths(paths) {
      if (paths.length === 0) return;
      pendingPaths = [...paths];
      emit('sendPaths', { paths: [...paths] });
    },
    async close() {
      await session.close();
      await lanRoom.set(false);
      await browser?.close();
      listeners.clear();
    },
  };
}
