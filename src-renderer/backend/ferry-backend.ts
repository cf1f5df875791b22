import type {
  DesktopSettings,
  DevicesView,
  DiscoveredRoom,
  LanRoomView,
  SettingsChange,
} from '../../src-shared/ipc/contract';
import type { IpcError, IpcResult } from '../../src-shared/ipc/result';
import type { HistoryEntry } from '../../src-shared/history/transfer-history';
import type { OfferPacking, TransferView } from '../../src-shared/transfer/transfer-view';
import type { NearbyView } from '../../src-shared/app/nearby-core';

export type { DevicesView, DiscoveredRoom, HistoryEntry, LanRoomView, NearbyView, SettingsChange };

/** What a send to a nearby device carries: the chosen files, or a text message. */
export type NearbyBatch = { items: readonly SelectedItem[] } | { text: string };

/** A failure a person should read: a stable `ERR_*` code and one sentence. */
export type BackendError = IpcError;

/** What every backend action resolves to; a backend never rejects or throws into the UI. */
export type BackendResult<T> = IpcResult<T>;

/**
 * The same settings on every surface; a surface without a settings screen shows the ones that
 * apply to it elsewhere, and keeps defaults for the rest.
 */
export type FerrySettings = DesktopSettings;

/** A file or folder chosen for sending, as the backend describes it. */
export interface SelectedItem {
  /** Identifies the source (desktop: its path); two items with the same id are the same thing. */
  id: string;
  name: string;
  /** Bytes, all files inside for a folder. */
  size: number;
  isDirectory: boolean;
  fileCount: number;
}

export type Surface = 'desktop' | 'browser';

/**
 * What a browser withholds from a page opened over plain HTTP, as a phone meets the LAN room
 * (docs/architecture.md, "Pages on plain HTTP"): a folder the person chooses, downloads streamed
 * through a service worker, notifications.
 */
export type PlainHttpLimit = 'choose-folder' | 'stream-downloads' | 'notify';

export interface BackendCapabilities {
  /** Can host a LAN room and sees the rooms other Ferry apps announce. */
  lanRoom: boolean;
  /** Can pick a folder for received files. */
  chooseDestination: boolean;
  /**
   * A file cut short on its way to the default destination resumes from what arrived; false where
   * it starts over (a browser's downloads), while a folder the person chooses resumes.
   */
  defaultDestinationResumes: boolean;
  /** Can open the download folder and show a received file in it. */
  revealFiles: boolean;
  /** Has a settings screen. */
  settings: boolean;
  /** Can accept offers from a remembered device without asking (the desktop app's quick save). */
  autoAcceptFromDevices: boolean;
  /** What this surface cannot do only because it is a page opened over plain HTTP; said where it matters. */
  plainHttpLimits: readonly PlainHttpLimit[];
}

export interface BackendSnapshot {
  transfer: TransferView;
  lanRoom: LanRoomView;
  discoveredRooms: DiscoveredRoom[];
  settings: FerrySettings;
  /** This device's name and the devices it remembers (docs/protocol.md, "Remembered devices"). */
  devices: DevicesView;
  /** Finished transfers kept on this device, newest first (empty while `keepHistory` is off). */
  history: HistoryEntry[];
  /** The devices a send reaches without a code (docs/architecture.md, "Nearby devices"). */
  nearby: NearbyView;
  /**
   * What Ferry was opened with ("Open with", command line), or why it could not be read. It may
   * take another request to describe, so it comes later than the rest, which is applied at once.
   */
  opened: Promise<BackendResult<SelectedItem[]>>;
}

export type BackendEvent =
  | { type: 'transfer'; transfer: TransferView }
  | { type: 'lan-room'; lanRoom: LanRoomView }
  | { type: 'discovered-rooms'; rooms: DiscoveredRoom[] }
  | { type: 'settings'; settings: FerrySettings }
  | { type: 'devices'; devices: DevicesView }
  | { type: 'history'; history: HistoryEntry[] }
  | { type: 'nearby'; nearby: NearbyView }
  | { type: 'opened'; opened: BackendResult<SelectedItem[]> }
  /** Something the person should know that does not stop the transfer (a skipped link). */
  | { type: 'warning'; message: string };

/**
 * Everything the screens and stores may ask of the program that actually moves files: the
 * desktop app's main process behind IPC, or (later) the browser's own WebRTC. Screens never
 * reach past it, so one UI runs on both.
 */
export interface FerryBackend {
  readonly surface: Surface;
  readonly capabilities: BackendCapabilities;
  /** Where a browser can open this build's web client, when the backend itself knows one. */
  readonly webClientUrl?: string;

  snapshot(): Promise<BackendResult<BackendSnapshot>>;
  /** Delivers every later change until `signal` aborts; fails when updates cannot be followed. */
  subscribe(listener: (event: BackendEvent) => void, signal: AbortSignal): BackendResult<null>;

  /** Reads the drop at once: a `DataTransfer` is emptied when its drop event returns. */
  addDropped(data: DataTransfer): Promise<BackendResult<SelectedItem[]>>;
  /** Resolve to an empty list when the person closes the picker. */
  pickFiles(): Promise<BackendResult<SelectedItem[]>>;
  pickFolder(): Promise<BackendResult<SelectedItem[]>>;

  /**
   * `to`: the fingerprint of a remembered device, the only one that may receive the batch
   * (docs/protocol.md, "Remembered devices"); refused when it is no longer remembered.
   */
  startSend(items: readonly SelectedItem[], to?: string): Promise<BackendResult<null>>;
  /** Sends `text` as a text message (docs/protocol.md, "Text messages"). */
  startSendText(text: string): Promise<BackendResult<null>>;
  /**
   * Sends `batch` to the nearby device `key` with no code (docs/architecture.md, "Nearby
   * devices"); refused with ERR_DEVICE_GONE once it left.
   */
  startSendNearby(key: string, batch: NearbyBatch): Promise<BackendResult<null>>;
  /**
   * Takes a normalized code, and the secret of the receive link it came from, which only a page
   * opened from a link has (docs/protocol.md, "Secret link").
   */
  startReceive(code: string, key?: string): Promise<BackendResult<null>>;
  /**
   * `packing`: how an offer that came with a `zip` choice is saved (a browser's downloads); the
   * `.zip` when not given.
   */
  answerOffer(
    accept: boolean,
    destination?: string,
    packing?: OfferPacking,
  ): Promise<BackendResult<null>>;
  /**
   * With "Confirm the words" on, the person's answer to "do the words match?" (the view's
   * `wordsAsked`): a sender's data goes or the transfer stops; a receiver's Accept is let
   * through, or the offer declined.
   */
  answerWords(match: boolean): Promise<BackendResult<null>>;
  /** A folder for the offer on screen only; null when the person closes the picker. */
  chooseDestination(): Promise<BackendResult<string | null>>;
  /** Picks and saves the download folder; null when the person closes the picker. */
  chooseDownloadFolder(): Promise<BackendResult<FerrySettings | null>>;
  cancel(): Promise<BackendResult<null>>;
  /** Leaves a finished or failed transfer and returns to idle. */
  dismiss(): Promise<BackendResult<null>>;

  /**
   * The download folder is not among them: only `chooseDownloadFolder` changes it. Turning
   * `keepHistory` off also clears the history.
   */
  updateSettings(changes: SettingsChange): Promise<BackendResult<FerrySettings>>;
  setLanRoom(enabled: boolean): Promise<BackendResult<LanRoomView>>;
  openFolder(path: string): Promise<BackendResult<null>>;
  revealFile(path: string): Promise<BackendResult<null>>;

  /**
   * Remembers the other end of the finished transfer on screen as `name`; refused unless that
   * transfer verified it (its `peer.check` is words, the secret link or a remembered device).
   */
  rememberPeer(name: string): Promise<BackendResult<DevicesView>>;
  renameDevice(fingerprint: string, name: string): Promise<BackendResult<DevicesView>>;
  /** This device's own name, announced from the next transfer on. */
  renameSelf(name: string): Promise<BackendResult<DevicesView>>;
  forgetDevice(fingerprint: string): Promise<BackendResult<DevicesView>>;
  /** Only where `capabilities.autoAcceptFromDevices`. */
  setDeviceAutoAccept(
    fingerprint: string,
    autoAccept: boolean,
  ): Promise<BackendResult<DevicesView>>;

  /** Empties the history; answers with what it holds then. */
  clearHistory(): Promise<BackendResult<HistoryEntry[]>>;
}
