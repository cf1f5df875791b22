import type { RememberedDevice } from '../devices/remembered-devices';
import type { HistoryEntry } from '../history/transfer-history';
import type { DevicesView } from '../ipc/contract';
import type { IpcError } from '../ipc/result';
import type { OfferPacking, TransferView } from '../transfer/transfer-view';

// The application core's ports (docs/architecture.md, "The application core"). The desktop
// controller and the browser backend each supply them; the core reaches the world through
// nothing else.

/** What one transfer tells the core while it runs. */
export interface TransferEvents {
  view(view: TransferView): void;
  warning(message: string): void;
}

/** One transfer a session starter began, as the core drives it. */
export interface RunningTransfer {
  /** The person stops it: the other side hears of it, and it ends failed as cancelled. */
  cancel(): void;
  /**
   * The person left it: it shows nothing more and stops. A finished one may still close its
   * channel in its own time (a receiver lingers so its last word lands).
   */
  leave(): void;
  /** The person's answer to the offer on screen; false when the transfer asks nothing. */
  answerOffer(accept: boolean, destination?: string, packing?: OfferPacking): Promise<boolean>;
  /** The person's answer to whether the words match; false when nothing asks. */
  answerWords(match: boolean): boolean;
  /** Settles once its channel and files are closed; never rejects. */
  readonly closed: Promise<void>;
}

/**
 * Begins the transfer `request` describes, in the runtime's own way; or refuses it with the
 * error the person reads when the request itself cannot be sent (an item gone, an empty text).
 */
export interface SessionStarter<Request> {
  start(request: Request, events: TransferEvents): Promise<RunningTransfer | IpcError>;
}

/** The finished transfers this installation keeps. */
export interface HistoryStore {
  /** Whether the person keeps a history at all. */
  keeping(): boolean;
  list(): readonly HistoryEntry[];
  /** Adds `entry`; the list as it stands afterwards. */
  add(entry: HistoryEntry): Promise<readonly HistoryEntry[]>;
  clear(): Promise<readonly HistoryEntry[]>;
  /** A fresh id for a new entry. */
  newId(): string;
}

/** The devices this installation remembers (docs/protocol.md, "Remembered devices"). */
export interface DeviceStore {
  ownName(): string;
  list(): readonly RememberedDevice[];
  /**
   * Each rejects with a DeviceListError when the change cannot be made. `pairSecret`: the one
   * agreed on the remembered connection (docs/protocol.md, "Pair rooms").
   */
  remember(fingerprint: string, name: string, pairSecret?: string): Promise<unknown>;
  rename(fingerprint: string, name: string): Promise<unknown>;
  forget(fingerprint: string): Promise<unknown>;
  /** A remembered device's quick save, on or off (docs/protocol.md, "Remembered devices"). */
  setAutoAccept(fingerprint: string, autoAccept: boolean): Promise<unknown>;
}

/** Where the core tells the screen what changed. */
export interface Notifier {
  transfer(view: TransferView): void;
  warning(message: string): void;
  history(entries: readonly HistoryEntry[]): void;
  devices(view: DevicesView): void;
}

/** Wall-clock time, for what a person reads later (a history entry's date). */
export interface WallClock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface AppPorts<Request> {
  sessions: SessionStarter<Request>;
  history: HistoryStore;
  devices: DeviceStore;
  notify: Notifier;
  clock: WallClock;
}
