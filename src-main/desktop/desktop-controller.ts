import { pairedDevices as pairedOf } from '../../src-shared/nearby/paired-devices';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type {
  DesktopSettings,
  DiscoveredRoom,
  EventChannel,
  EventContract,
  HandlerMap,
} from '../../src-shared/ipc/contract';
import { HandlerError } from '../../src-shared/ipc/dispatch';
import { appError, type UnchosenPath } from '../../src-shared/app/app-errors';
import type { IpcError, IpcResult } from '../../src-shared/ipc/result';
import { AppCore } from '../../src-shared/app/app-core';
import { NearbyCore, PAIR_KEY } from '../../src-shared/app/nearby-core';
import type { ExpectedPeer } from '../../src-shared/session/expected-peer';
import type { PairedDevice } from '../../src-shared/nearby/nearby-ports';
import type { SessionStarter } from '../../src-shared/app/app-ports';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';
import { AUTO_ACCEPT_DEFAULT_MAX_BYTES } from '../../src-shared/devices/auto-accept';
import { defaultDeviceName, openInstallation } from '../devices/installation';
import { openHistoryBook } from '../history/history-book';
import {
  nodeClock,
  openNativePairRooms,
  openNativePresence,
  type EngineTimeouts,
  type PeerOptions,
} from '../engine';
import { browseRooms, type RoomBrowser } from '../lan/room-browser';
import { autoAcceptQuestion, settingsQuestion } from './change-questions';
import { describePaths } from './describe-paths';
import type { ChangeQuestion, DesktopDialogs, DesktopShell } from './desktop-ports';
import { LanRoomHost } from './lan-room-host';
import {
  ChosenPaths,
  isOpenableFolder,
  isRecordedFile,
  isRecordedFolder,
  isRevealableFile,
} from './path-allowlist';
import { openSettingsStore } from './settings-store';
import { MovablePairRooms } from './movable-pair-rooms';
import { engineSessions, type DesktopStart } from './transfer-session';

export interface DesktopControllerOptions {
  /**
   * settings.json lives here, and this installation's certificate, remembered devices and
   * history.
   */
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
  /** Where transfers come from; the engine's unless a test drives them by hand. */
  sessions?: SessionStarter<DesktopStart>;
}

/** A server this app talks to, and what reaching it takes. */
type ServerChoice = Pick<PeerOptions, 'serverUrl' | 'serverCertificate' | 'route'>;

/** A refusal the person reads, as the IPC dispatcher passes it on. */
function refuse(error: IpcError): never {
  throw new HandlerError(error.code, error.message);
}

/** The core's answer as a handler gives it: its value, or its refusal thrown for dispatch. */
function valueOf<T>(result: IpcResult<T>): T {
  if (!result.ok) refuse(result.error);
  return result.value;
}

export type EventListener = <K extends EventChannel>(channel: K, payload: EventContract[K]) => void;

export interface DesktopController {
  readonly handlers: HandlerMap;
  onEvent(listener: EventListener): () => void;
  /** Files handed to the app at launch or later ("Open with", a second launch, a dock drop). */
  openPaths(paths: readonly string[]): void;
  /** A path the preload read off a file the person dropped on the window. */
  addDroppedPath(path: string): void;
  /**
   * Resolves once no transfer is running and the last finished one is in the history. A finished
   * one shows `done` a moment before its channel closes, and until then a new one is refused as
   * busy; tests wait here between transfers.
   */
  settled(): Promise<void>;
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
    keepHistory: true,
    confirmWords: false,
    autoAcceptMaxBytes: AUTO_ACCEPT_DEFAULT_MAX_BYTES,
    lanRoomHttps: false,
  };
  const settings = await openSettingsStore(join(options.userDataDir, 'settings.json'), defaults);
  // The same certificate on every connection, so remembered devices know this one again.
  const installation = await openInstallation(options.userDataDir, defaultDeviceName());
  const { book } = installation;
  // The name the person gave this computer in Settings, else its own (docs/protocol.md, "The name
  // shown"); each transfer announces it as it is when the transfer starts.
  const ownName = (): string => settings.get().deviceName ?? installation.setting.ownName;
  const history = await openHistoryBook(options.userDataDir);
  // The rules of the transfer on screen live in the core; this controller only translates
  // (docs/architecture.md, "The application core").
  const core = new AppCore<DesktopStart>({
    sessions: options.sessions ?? engineSessions,
    history: {
      keeping: () => settings.get().keepHistory,
      list: () => history.list(),
      add: (entry) => history.add(entry),
      clear: () => history.clear(),
      newId: () => randomUUID(),
    },
    devices: {
      ownName,
      setOwnName: (name) => settings.update({ deviceName: name }),
      list: () => book.list(),
      remember: (fingerprint, name, pairSecret) => book.remember(fingerprint, name, pairSecret),
      rename: (fingerprint, name) => book.rename(fingerprint, name),
      forget: (fingerprint) => book.forget(fingerprint),
      setAutoAccept: (fingerprint, autoAccept) => book.setAutoAccept(fingerprint, autoAccept),
    },
    notify: {
      transfer: (view) => emit('transferState', view),
      warning: (message) => emit('transferWarning', { message }),
      history: (entries) => emit('historyChanged', [...entries]),
      devices: (view) => {
        emit('devicesChanged', view);
        // Remembered, renamed or forgotten: the pair rooms follow (a forgotten one is left).
        nearby.paired(pairedDevices());
      },
    },
    clock: { now: () => Date.now() },
  });
  const lanRoom = new LanRoomHost({
    webClientRoot: options.webClientRoot,
    address: options.lanAddress,
    https: () => settings.get().lanRoomHttps,
    certificateFolder: options.userDataDir,
    publish: (view) => {
      emit('lanRoomState', view);
      followServers();
    },
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
  // Only what main handed out is trusted (docs/architecture.md, "Paths the person chose").
  const chosen = new ChosenPaths();
  const chosenFolders = new ChosenPaths();

  /** Goes on only once the person confirmed `question` in main's own dialog. */
  const requireConfirmed = async (question: ChangeQuestion | undefined): Promise<void> => {
    if (question === undefined || (await options.dialogs.confirmChange(question))) return;
    refuse(appError('ERR_CHANGE_NOT_CONFIRMED'));
  };

  const refuseUnchosen = (unchosen: UnchosenPath): never =>
    refuse(appError('ERR_PATH_NOT_CHOSEN', unchosen));
  const requireChosen = (paths: readonly string[]): void => {
    const [path] = chosen.unchosen(paths);
    if (path !== undefined) refuseUnchosen({ kind: 'send', path });
  };
  const requireChosenFolder = (folder: string): void => {
    const usual = settings.get().downloadFolder;
    if (folder !== usual && chosenFolders.unchosen([folder]).length > 0) {
      refuseUnchosen({ kind: 'save', folder });
    }
  };
  const pickedToSend = async (paths: string[]) => {
    chosen.add(paths);
    return describePaths(paths);
  };

  /**
   * Where this app meets others by a code or its roster: its LAN room while it hosts one (its own
   * transfers then stay on the LAN), else the server chosen in Settings.
   */
  const meetingServer = (): ServerChoice => {
    const roomUrl = lanRoom.url;
    const roomCertificate = lanRoom.fingerprint;
    if (roomUrl === undefined) return configuredServer();
    return {
      serverUrl: roomUrl,
      // The room's own certificate, which no authority signed (docs/architecture.md).
      ...(roomCertificate === undefined ? {} : { serverCertificate: roomCertificate }),
      route: 'host-only',
    };
  };
  /** The server chosen in Settings, where the pair rooms are (docs/protocol.md, "Pair rooms"). */
  const configuredServer = (): ServerChoice => ({
    serverUrl: settings.get().serverUrl,
    route: 'any',
  });

  const peerOptions = (server: ServerChoice = meetingServer()): PeerOptions => ({
    ...server,
    ver: options.version,
    remedySurface: 'desktop',
    timeouts: options.timeouts,
    identity: {
      pemFile: installation.identity.pemFile,
      devices: { ...installation.setting, ownName: ownName() },
    },
  });

  /**
   * A receive into the download folder: by a code (and the key of the link it came with), or by
   * the room of a nearby device's invitation, with no code, on the server it came through.
   */
  const startReceive = async (
    from: { code: string; linkSecret?: string } | { roomId: string },
    server: ServerChoice = meetingServer(),
    expectPeer?: ExpectedPeer,
  ) => {
    const { downloadFolder, reportStats, confirmWords, autoAcceptMaxBytes } = settings.get();
    const request = {
      ...('roomId' in from ? { code: '', roomId: from.roomId } : from),
      destination: downloadFolder,
      reportBytes: reportStats,
      devices: book,
      autoAcceptMaxBytes,
      confirmWords,
    };
    const peer = { ...peerOptions(server), ...(expectPeer === undefined ? {} : { expectPeer }) };
    return core.start({ kind: 'receive', request, peer });
  };

  // Only main's own device book says which devices are paired, never the window.
  const pairRooms = new MovablePairRooms((devices) =>
    openNativePairRooms(configuredServer(), devices),
  );
  /** The remembered devices with a pair secret, whose rooms the app waits in while it runs. */
  const pairedDevices = (): PairedDevice[] => pairedOf(book.list());

  // The devices a send reaches with no code (docs/architecture.md, "Nearby devices", the desktop
  // app): the roster of the server it meets others on, and the pair rooms on its configured
  // server. An invitation becomes a receive of its room on the server it came through: a pair
  // room's is pinned to that device, a roster's never is.
  const nearby = new NearbyCore(
    {
      intro: { name: ownName(), kind: 'desktop' },
      clock: nodeClock,
      busy: () => core.busy,
      pairRooms,
      openPresence: (intro, cancelled) => {
        const { serverUrl, serverCertificate } = meetingServer();
        const pinned = serverCertificate === undefined ? {} : { serverCertificate };
        return openNativePresence(serverUrl, pinned)(intro, cancelled);
      },
    },
    {
      view: (view) => emit('nearbyChanged', view),
      invited: ({ roomId, expectPeer }) =>
        void startReceive(
          { roomId },
          expectPeer === undefined ? meetingServer() : configuredServer(),
          expectPeer,
        ),
    },
  );
  nearby.paired(pairedDevices());
  let pairUrl = configuredServer().serverUrl;
  let rosterUrl = meetingServer().serverUrl;
  /** The LAN room went on or off, or another server was chosen: the seat and rooms follow. */
  const followServers = (): void => {
    const roster = meetingServer().serverUrl;
    if (roster !== rosterUrl) {
      rosterUrl = roster;
      nearby.rejoin();
    }
    const pair = configuredServer().serverUrl;
    if (pair !== pairUrl) {
      pairUrl = pair;
      pairRooms.move();
    }
  };
  // Not awaited: a server that is slow to answer must not hold the window back.
  void nearby.start();

  const handlers: HandlerMap = {
    getSnapshot: async () => {
      const snapshot = {
        transfer: core.view,
        lanRoom: lanRoom.view,
        discoveredRooms: discovered,
        settings: settings.get(),
        devices: core.devicesView(),
        history: core.history(),
        pendingPaths,
        nearby: nearby.view,
      };
      pendingPaths = [];
      return snapshot;
    },
    describePaths: async ({ paths }) => {
      requireChosen(paths);
      return describePaths(paths);
    },
    pickFiles: async () => pickedToSend(await options.dialogs.pickFiles()),
    pickFolder: async () => pickedToSend(await options.dialogs.pickFolder()),
    chooseDownloadFolder: async () => {
      const folder = await options.dialogs.pickDownloadFolder();
      return folder === null ? null : settings.update({ downloadFolder: folder });
    },
    chooseDestination: async () => {
      const folder = await options.dialogs.pickDownloadFolder();
      if (folder !== null) chosenFolders.add([folder]);
      return folder;
    },
    startSend: async ({ paths, to }) => {
      requireChosen(paths);
      const { confirmWords } = settings.get();
      const pinned = to === undefined ? undefined : core.pinnedPeer(to);
      if (pinned !== undefined && 'code' in pinned) refuse(pinned);
      const peer = { ...peerOptions(), ...(pinned === undefined ? {} : { expectPeer: pinned }) };
      return valueOf(await core.start({ kind: 'send', paths, peer, confirmWords }));
    },
    startSendNearby: async (request) => {
      // The same allow-list as any send: only paths main handed out.
      if ('paths' in request) requireChosen(request.paths);
      const reach = nearby.reachFor(request.key);
      if ('code' in reach) refuse(reach);
      // A paired device is met in its pair room's server, a roster device on the roster's.
      const peer = peerOptions(
        request.key.startsWith(PAIR_KEY) ? configuredServer() : meetingServer(),
      );
      const { confirmWords } = settings.get();
      if ('text' in request) {
        return valueOf(
          await core.start({ kind: 'text', text: request.text, peer, confirmWords, reach }),
        );
      }
      return valueOf(
        await core.start({ kind: 'send', paths: request.paths, peer, confirmWords, reach }),
      );
    },
    startSendText: async ({ text }) => {
      const { confirmWords } = settings.get();
      return valueOf(await core.start({ kind: 'text', text, peer: peerOptions(), confirmWords }));
    },
    startReceive: async ({ code, key }) =>
      // A pasted receive link's key: the sender must prove it holds the same.
      valueOf(await startReceive({ code, ...(key === undefined ? {} : { linkSecret: key }) })),
    answerOffer: async ({ accept, destination }) => {
      if (destination !== undefined) requireChosenFolder(destination);
      return valueOf(await core.answerOffer(accept, destination));
    },
    answerWords: async ({ match }) => valueOf(core.answerWords(match)),
    cancelTransfer: async () => valueOf(core.cancel()),
    dismissTransfer: async () => valueOf(core.dismiss()),
    updateSettings: async (change) => {
      await requireConfirmed(settingsQuestion(settings.get(), change));
      const before = settings.get();
      const updated = await settings.update(change);
      if (change.keepHistory !== undefined) await core.keepHistoryChanged(change.keepHistory);
      // A room that is on starts again at once, serving the new choice.
      if (updated.lanRoomHttps !== before.lanRoomHttps) await lanRoom.restart();
      followServers();
      return updated;
    },
    setLanRoom: ({ enabled }) => lanRoom.set(enabled),
    openFolder: async ({ path }) => {
      if (!isOpenableFolder(core.view, path) && !isRecordedFolder(history.list(), path)) {
        refuseUnchosen({ kind: 'open' });
      }
      await options.desktopShell.openFolder(path);
      return null;
    },
    revealFile: async ({ path }) => {
      if (!isRevealableFile(core.view, path) && !isRecordedFile(history.list(), path)) {
        refuseUnchosen({ kind: 'reveal' });
      }
      options.desktopShell.revealFile(path);
      return null;
    },
    // Which device comes from main's own view of the transfer, never from the window.
    rememberPeer: async ({ name }) => valueOf(await core.rememberPeer(name)),
    renameSelf: async ({ name }) => {
      const renamed = valueOf(await core.renameSelf(name));
      // The roster shows the new name at once; a transfer uses it from the next one.
      nearby.introduce({ name: ownName(), kind: 'desktop' });
      return renamed;
    },
    renameDevice: async ({ fingerprint, name }) =>
      valueOf(await core.renameDevice(fingerprint, name)),
    forgetDevice: async ({ fingerprint }) => valueOf(await core.forgetDevice(fingerprint)),
    setDeviceAutoAccept: async ({ fingerprint, autoAccept }) => {
      const device = book.find(fingerprint);
      if (autoAccept && device !== undefined && !device.autoAccept) {
        await requireConfirmed(autoAcceptQuestion(device.name, settings.get()));
      }
      return valueOf(await core.setDeviceAutoAccept(fingerprint, autoAccept));
    },
    clearHistory: async () => [...(await core.clearHistory())],
  };

  return {
    handlers,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    openPaths(paths) {
      if (paths.length === 0) return;
      chosen.add(paths);
      pendingPaths = [...paths];
      emit('sendPaths', { paths: [...paths] });
    },
    addDroppedPath(path) {
      chosen.add([path]);
    },
    settled: () => core.settled(),
    async close() {
      nearby.close();
      await core.close();
      await lanRoom.set(false);
      await browser?.close();
      listeners.clear();
    },
  };
}
