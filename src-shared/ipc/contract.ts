import * as v from 'valibot';
import type { TransferView } from '../transfer/transfer-view';
import type { IpcResult } from './result';
import { type DesktopSettings, DesktopSettingsSchema } from './settings-schema';
import {
  DeviceNameInputSchema,
  FingerprintSchema,
  PathListSchema,
  PathSchema,
} from './value-schemas';
import type { RememberedDevice } from '../devices/remembered-devices';
import type { HistoryEntry } from '../history/transfer-history';
import { LINK_SECRET_PATTERN, TEXT_MESSAGE_MAX_BYTES } from '../protocol/limits';
import { textMessageBytes } from '../session/text-message';
import { PAIR_KEY, ROOM_KEY, type NearbyView } from '../app/nearby-core';
import { PRESENCE_ID_ALPHABET, PRESENCE_ID_CHARS } from '../nearby/nearby-limits';

/** A file or folder chosen for sending, as main describes it to the renderer. */
export interface SendItem {
  path: string;
  name: string;
  /** Total bytes (all files inside, for a folder). */
  size: number;
  isDirectory: boolean;
  fileCount: number;
}

/** Settings are declared by their schema; they cross IPC as part of this contract. */
export type { DesktopSettings };

/**
 * This installation's name and the devices it remembers (docs/protocol.md, "Remembered
 * devices"), as Settings lists them.
 */
export interface DevicesView {
  ownName: string;
  remembered: RememberedDevice[];
}

export type LanRoomView =
  | { state: 'off' }
  | { state: 'starting' }
  /**
   * `fingerprint`: served over HTTPS, the SHA-256 of the room's certificate, colon-separated
   * hex as browsers show it (docs/architecture.md, "The LAN room over HTTPS").
   */
  | { state: 'on'; url: string; fingerprint?: string }
  | { state: 'failed'; message: string };

/** A LAN room another Ferry announced over DNS-SD. */
export interface DiscoveredRoom {
  name: string;
  url: string;
}

export interface DesktopSnapshot {
  transfer: TransferView;
  lanRoom: LanRoomView;
  discoveredRooms: DiscoveredRoom[];
  settings: DesktopSettings;
  devices: DevicesView;
  /** Finished transfers, newest first. */
  history: HistoryEntry[];
  /** Paths handed to the app at launch ("Open with", command line) not yet shown. */
  pendingPaths: string[];
  /** The devices a send reaches without a code (docs/architecture.md, "Nearby devices"). */
  nearby: NearbyView;
}

type Empty = Record<string, never>;

/**
 * What the renderer may change directly. The download folder is not here: it changes only
 * through main's own folder dialog (`chooseDownloadFolder`), so a compromised renderer cannot
 * aim received files at an autostart folder.
 */
export type SettingsChange = Partial<Omit<DesktopSettings, 'downloadFolder' | 'deviceName'>>;

/** Every request the renderer can make of main: its payload and what it returns. */
export interface InvokeContract {
  getSnapshot: { request: Empty; response: DesktopSnapshot };
  describePaths: { request: { paths: string[] }; response: SendItem[] };
  pickFiles: { request: Empty; response: SendItem[] };
  pickFolder: { request: Empty; response: SendItem[] };
  /** Main's folder dialog; the choice becomes the download folder. Null when cancelled. */
  chooseDownloadFolder: { request: Empty; response: DesktopSettings | null };
  /** Main's folder dialog for the offer on screen only. Null when cancelled. */
  chooseDestination: { request: Empty; response: string | null };
  /** `to`: a remembered device's fingerprint, the only one that may receive the batch. */
  startSend: { request: { paths: string[]; to?: string }; response: null };
  /** A text sent as a text message (docs/protocol.md, "Text messages"). */
  startSendText: { request: { text: string }; response: null };
  /**
   * Sends the chosen paths, or a text, to the nearby device `key` with no code
   * (docs/architecture.md, "Nearby devices"); refused with ERR_DEVICE_GONE once it left.
   */
  startSendNearby: {
    request: { key: string; paths: string[] } | { key: string; text: string };
    response: null;
  };
  /** `key`: the secret of the receive link the code was pasted with (docs/protocol.md, "Secret link"). */
  startReceive: { request: { code: string; key?: string }; response: null };
  answerOffer: { request: { accept: boolean; destination?: string }; response: null };
  /**
   * With "Confirm the words" on, the person's answer to "do the words match?": on a sender it
   * lets file data go or stops the transfer; on a receiver it lets Accept through or declines.
   */
  answerWords: { request: { match: boolean }; response: null };
  cancelTransfer: { request: Empty; response: null };
  dismissTransfer: { request: Empty; response: null };
  updateSettings: { request: SettingsChange; response: DesktopSettings };
  setLanRoom: { request: { enabled: boolean }; response: LanRoomView };
  /** Only the folder of the finished transfer on screen, or of an entry of the history. */
  openFolder: { request: { path: string }; response: null };
  /** Only a file the finished transfer on screen, or an entry of the history, saved. */
  revealFile: { request: { path: string }; response: null };
  /**
   * Remembers the other end of the finished transfer on screen as `name`; refused unless that
   * transfer verified it (words, secret link, or a device remembered already).
   */
  rememberPeer: { request: { name: string }; response: DevicesView };
  renameDevice: { request: { fingerprint: string; name: string }; response: DevicesView };
  renameSelf: { request: { name: string }; response: DevicesView };
  forgetDevice: { request: { fingerprint: string }; response: DevicesView };
  /** Offers from this remembered device are accepted into the download folder without asking. */
  setDeviceAutoAccept: {
    request: { fingerprint: string; autoAccept: boolean };
    response: DevicesView;
  };
  /** Empties the history; answers with what it holds then. */
  clearHistory: { request: Empty; response: HistoryEntry[] };
}

/** Everything main pushes to the renderer. */
export interface EventContract {
  transferState: TransferView;
  lanRoomState: LanRoomView;
  discoveredRooms: DiscoveredRoom[];
  sendPaths: { paths: string[] };
  /** Something the person should know that does not stop the transfer (a skipped link). */
  transferWarning: { message: string };
  devicesChanged: DevicesView;
  /** The history, newest first, after a transfer was added or it was cleared. */
  historyChanged: HistoryEntry[];
  /** The nearby devices, on every change (docs/architecture.md, "Nearby devices"). */
  nearbyChanged: NearbyView;
}

export type InvokeChannel = keyof InvokeContract;
export type EventChannel = keyof EventContract;
export type RequestOf<K extends InvokeChannel> = InvokeContract[K]['request'];
export type ResponseOf<K extends InvokeChannel> = InvokeContract[K]['response'];

const MAX_CODE_INPUT = 200;
const EmptySchema = v.strictObject({});
const PathsSchema = v.strictObject({ paths: PathListSchema });
const PathRequestSchema = v.strictObject({ path: PathSchema });

/**
 * A text message: not empty, and at most TEXT_MESSAGE_MAX_BYTES of UTF-8. Each UTF-16 unit takes
 * at least one byte, so the length is checked first, before anything is encoded.
 */
const TextMessageSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(TEXT_MESSAGE_MAX_BYTES),
  v.check(
    (text) => textMessageBytes(text) <= TEXT_MESSAGE_MAX_BYTES,
    'the text is longer than a text message may be',
  ),
);

const ROOM_KEY_PATTERN = new RegExp(`^${ROOM_KEY}[${PRESENCE_ID_ALPHABET}]{${PRESENCE_ID_CHARS}}$`);

/** A nearby device's key, as the nearby layer draws it: a roster id or a certificate fingerprint. */
const NearbyKeySchema = v.pipe(
  v.string(),
  v.check(
    (key) =>
      ROOM_KEY_PATTERN.test(key) ||
      (key.startsWith(PAIR_KEY) && v.is(FingerprintSchema, key.slice(PAIR_KEY.length))),
    'not a nearby device',
  ),
);

/**
 * The runtime half of the contract: one schema per channel, so the channel list is derived.
 * Strict objects: a key the contract does not name, own or inherited, refuses the request.
 */
export const requestSchemas: {
  [K in InvokeChannel]: v.GenericSchema<unknown, RequestOf<K>>;
} = {
  getSnapshot: EmptySchema,
  describePaths: PathsSchema,
  pickFiles: EmptySchema,
  pickFolder: EmptySchema,
  chooseDownloadFolder: EmptySchema,
  chooseDestination: EmptySchema,
  startSend: v.strictObject({ paths: PathListSchema, to: v.optional(FingerprintSchema) }),
  startSendText: v.strictObject({ text: TextMessageSchema }),
  startSendNearby: v.union([
    v.strictObject({ key: NearbyKeySchema, paths: PathListSchema }),
    v.strictObject({ key: NearbyKeySchema, text: TextMessageSchema }),
  ]),
  startReceive: v.strictObject({
    code: v.pipe(v.string(), v.maxLength(MAX_CODE_INPUT)),
    key: v.optional(v.pipe(v.string(), v.regex(LINK_SECRET_PATTERN))),
  }),
  answerOffer: v.strictObject({ accept: v.boolean(), destination: v.optional(PathSchema) }),
  answerWords: v.strictObject({ match: v.boolean() }),
  cancelTransfer: EmptySchema,
  dismissTransfer: EmptySchema,
  updateSettings: v.strictObject(
    v.partial(v.omit(DesktopSettingsSchema, ['downloadFolder', 'deviceName'])).entries,
  ),
  setLanRoom: v.strictObject({ enabled: v.boolean() }),
  openFolder: PathRequestSchema,
  revealFile: PathRequestSchema,
  rememberPeer: v.strictObject({ name: DeviceNameInputSchema }),
  renameDevice: v.strictObject({ fingerprint: FingerprintSchema, name: DeviceNameInputSchema }),
  renameSelf: v.strictObject({ name: DeviceNameInputSchema }),
  forgetDevice: v.strictObject({ fingerprint: FingerprintSchema }),
  setDeviceAutoAccept: v.strictObject({ fingerprint: FingerprintSchema, autoAccept: v.boolean() }),
  clearHistory: EmptySchema,
};

export const INVOKE_CHANNELS = Object.keys(requestSchemas) as InvokeChannel[];

const eventChannelSet: { [K in EventChannel]: true } = {
  transferState: true,
  lanRoomState: true,
  discoveredRooms: true,
  sendPaths: true,
  transferWarning: true,
  devicesChanged: true,
  historyChanged: true,
  nearbyChanged: true,
};
export const EVENT_CHANNELS = Object.keys(eventChannelSet) as EventChannel[];

/** Wire names are namespaced so no other ipc traffic can collide with Ferry's. */
export const invokeWireName = (channel: InvokeChannel): string => `ferry:invoke:${channel}`;
export const eventWireName = (channel: EventChannel): string => `ferry:event:${channel}`;

/**
 * The preload's own channel, never exposed to the page: the disk path of a file the person
 * dropped, read by webUtils.getPathForFile, which main then trusts as chosen. A page cannot
 * forge one: a `File` it builds itself has no path (docs/architecture.md, "Paths the person
 * chose").
 */
export const DROPPED_PATH_WIRE = 'ferry:dropped-path';

/** What main implements; the shell and the test bridge register the same map. */
export type HandlerMap = {
  [K in InvokeChannel]: (request: RequestOf<K>) => Promise<ResponseOf<K>>;
};

/** Anything the renderer can drop: a DOM `File` satisfies it. */
export interface DroppedFile {
  readonly name: string;
}

/** The one object the preload exposes as `window.ferry`. */
export interface FerryBridge {
  invoke: { [K in InvokeChannel]: (request: RequestOf<K>) => Promise<IpcResult<ResponseOf<K>>> };
  /**
   * Follows one event channel; call the returned function to stop. (An AbortSignal cannot cross
   * Electron's context bridge: it arrives as an empty object.)
   */
  on<K extends EventChannel>(channel: K, listener: (payload: EventContract[K]) => void): () => void;
  /** The filesystem path of a dropped file (Electron's webUtils.getPathForFile). */
  pathForFile(file: DroppedFile): string;
}
