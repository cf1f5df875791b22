import { DeviceListError } from '../devices/remembered-devices';
import { errorMessage } from '../format/error-message';
import {
  entryFromDone,
  entryFromFailed,
  type BatchSeen,
  type HistoryEntry,
} from '../history/transfer-history';
import type { DevicesView } from '../ipc/contract';
import { ok, type IpcError, type IpcResult } from '../ipc/result';
import { INLINE_TEXT_MAX_BYTES } from '../protocol/limits';
import {
  IDLE_TRANSFER,
  type OfferPacking,
  type TransferPhase,
  type TransferView,
} from '../transfer/transfer-view';
import type { ExpectedPeer } from '../session/expected-peer';
import { appError, refused } from './app-errors';
import type { AppPorts, RunningTransfer } from './app-ports';

/**
 * An offer accepted without asking: a text message a Ferry sender marked as one, short enough to
 * be read at a glance, when the person did not ask to compare the words first. It appears once
 * it arrived (docs/architecture.md, "The application core").
 */
function isInlineText(view: TransferView): boolean {
  return (
    view.phase === 'awaiting-acceptance' &&
    view.offer.textMessage === true &&
    view.offer.totalBytes <= INLINE_TEXT_MAX_BYTES &&
    view.wordsAsked !== true
  );
}

/** A transfer with one of these views has its outcome. */
const FINAL_PHASES: ReadonlySet<TransferPhase> = new Set(['done', 'failed']);

/** A send in these views has no receiver yet: cancelling it concerns nobody else. */
const PEERLESS_PHASES: ReadonlySet<TransferPhase> = new Set([
  'idle',
  'registering',
  'waiting-for-peer',
]);

/**
 * In these views the other device is there and the batch is known: a failure from here on ends
 * a batch, which the history keeps; one before (a code that did not work) ends none.
 */
const MET_PHASES: ReadonlySet<TransferPhase> = new Set([
  'awaiting-acceptance',
  'waiting-for-acceptance',
  'transferring',
  'reconnecting',
]);

/** What the person reads when the history could not take a finished transfer. */
export function historyNotRecorded(reason: string): string {
  return `Ferry could not add this transfer to its history (${reason}).`;
}

/**
 * The history entry `view` ends its batch with, given its time and id: a whole batch, or one
 * that failed once the other device was there. Nothing for any other view.
 */
function entryOf(
  view: TransferView,
  { met, batch }: Shown,
): ((at: number, id: string) => HistoryEntry) | undefined {
  if (view.phase === 'done') return (at, id) => entryFromDone(view, at, id);
  if (view.phase !== 'failed' || !met || batch === undefined) return undefined;
  return (at, id) => entryFromFailed(view, batch, at, id);
}

/** One transfer the core began, from its start until the person leaves it. */
interface Shown {
  /** Undefined while the session starter is still setting it up. */
  transfer: RunningTransfer | undefined;
  /** Left while it was still being set up: it is left as soon as it exists. */
  left: boolean;
  final: boolean;
  recorded: boolean;
  /** The batch as its views told it so far, and the check they showed. */
  batch: BatchSeen | undefined;
  /** The other device was there: the batch was offered to it, or by it. */
  met: boolean;
  /** An inline text was offered before the transfer was handed over: accept it then. */
  acceptWhenStarted: boolean;
}

/** What `view` tells of the batch, on top of what earlier views told. */
function batchSeen(seen: BatchSeen | undefined, view: TransferView): BatchSeen | undefined {
  switch (view.phase) {
    case 'registering':
    case 'waiting-for-peer':
      return { fileCount: view.files.length, totalBytes: view.totalBytes };
    case 'awaiting-acceptance':
      return {
        fileCount: view.offer.fileCount,
        totalBytes: view.offer.totalBytes,
        check: view.offer.peerCheck,
      };
    case 'waiting-for-acceptance':
      return seen === undefined || view.peerCheck === undefined
        ? seen
        : { ...seen, check: view.peerCheck };
    case 'transferring': {
      // The batch as offered stands; progress counts it only where no earlier view did.
      const { fileCount, totalBytes } = seen ?? view.progress;
      return {
        fileCount,
        totalBytes,
        ...(view.peerCheck === undefined ? {} : { check: view.peerCheck }),
      };
    }
    default:
      return seen;
  }
}

/**
 * The rules of the one transfer on screen, written once for every surface (docs/architecture.md,
 * "The application core"): start, busy, cancel, dismiss and leave; the history of finished
 * transfers; remembering only a verified device. The desktop controller and the browser backend
 * translate their requests into these calls, and the notifier's events into theirs.
 */
export class AppCore<Request> {
  readonly #ports: AppPorts<Request>;
  #view: TransferView = IDLE_TRANSFER;
  /** The transfer on screen, until the person leaves it. */
  #shown: Shown | undefined;
  /** Every transfer whose channel and files are not closed yet, the one on screen included. */
  readonly #closing = new Set<Promise<void>>();
  /** History changes, each in turn, so `settled()` can wait for the last one. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(ports: AppPorts<Request>) {
    this.#ports = ports;
  }

  get view(): TransferView {
    return this.#view;
  }

  /**
   * One transfer at a time: refused with ERR_BUSY while one is running (or being set up). A
   * finished one on screen is left for the new one.
   */
  async start(request: Request): Promise<IpcResult<null>> {
    if (this.#busy) return refused('ERR_BUSY');
    const before = this.#shown;
    const shown: Shown = {
      transfer: undefined,
      left: false,
      final: false,
      recorded: false,
      batch: undefined,
      met: false,
      acceptWhenStarted: false,
    };
    this.#shown = shown;
    let started: RunningTransfer | IpcError;
    try {
      started = await this.#ports.sessions.start(request, {
        view: (view) => this.#viewOf(shown, view),
        warning: (message) => {
          if (this.#shown === shown) this.#ports.notify.warning(message);
        },
      });
    } catch (error) {
      if (this.#shown === shown) this.#shown = before;
      throw error;
    }
    if (!('closed' in started)) {
      if (this.#shown === shown) this.#shown = before;
      return { ok: false, error: started };
    }
    shown.transfer = started;
    this.#closing.add(started.closed);
    void started.closed.then(() => this.#closing.delete(started.closed));
    before?.transfer?.leave();
    if (shown.left) started.leave();
    else if (shown.acceptWhenStarted) void started.answerOffer(true);
    return ok(null);
  }

  /**
   * Before a receiver came, a cancel concerns nobody else: back to the start, no failure shown.
   * Afterwards the other side hears of it and the transfer ends as cancelled. A finished
   * transfer, or none, has nothing to cancel.
   */
  cancel(): IpcResult<null> {
    const shown = this.#shown;
    if (shown === undefined || shown.final) return ok(null);
    if (PEERLESS_PHASES.has(this.#view.phase)) {
      this.#leave(shown);
      this.#show(IDLE_TRANSFER);
    } else {
      shown.transfer?.cancel();
    }
    return ok(null);
  }

  /**
   * Leaves the transfer on screen once it has its outcome, even while its channel still closes,
   * so another may start at once. A running one is refused with ERR_BUSY: cancel is the way.
   */
  dismiss(): IpcResult<null> {
    if (this.#busy) return refused('ERR_BUSY');
    if (this.#shown !== undefined) this.#leave(this.#shown);
    this.#show(IDLE_TRANSFER);
    return ok(null);
  }

  /** The app is closing: the running transfer is cancelled and every one closes. */
  async close(): Promise<void> {
    if (this.#busy) this.#shown?.transfer?.cancel();
    await this.settled();
  }

  /** Resolves once no transfer is closing any more and the last history change is made. */
  async settled(): Promise<void> {
    await Promise.all([...this.#closing]);
    await this.#writes;
  }

  async answerOffer(
    accept: boolean,
    destination?: string,
    packing?: OfferPacking,
  ): Promise<IpcResult<null>> {
    const view = this.#view;
    const transfer = this.#shown?.transfer;
    if (transfer === undefined || view.phase !== 'awaiting-acceptance') {
      return refused('ERR_NO_OFFER');
    }
    // With "Confirm the words" on, Accept counts only once the words were compared; a decline
    // needs no comparison.
    if (view.wordsAsked) {
      if (accept) return refused('ERR_WORDS_NOT_COMPARED');
      transfer.answerWords(false);
      return ok(null);
    }
    if (!(await transfer.answerOffer(accept, destination, packing))) return refused('ERR_NO_OFFER');
    return ok(null);
  }

  answerWords(match: boolean): IpcResult<null> {
    if (this.#shown?.transfer?.answerWords(match) !== true) return refused('ERR_NO_WORDS_QUESTION');
    return ok(null);
  }

  /** Only the device on the other end of a finished transfer that verified it. */
  rememberPeer(name: string): Promise<IpcResult<DevicesView>> {
    const view = this.#view;
    const peer = view.phase === 'done' ? view.peer : undefined;
    if (peer === undefined || peer.check.kind === 'unverified') {
      return Promise.resolve(refused('ERR_NOT_VERIFIED'));
    }
    // The secret comes from this side's own view of the connection, like the fingerprint.
    return this.changeDevices(() =>
      this.#ports.devices.remember(peer.fingerprint, name, peer.pairSecret),
    );
  }

  /**
   * The device a send is pinned to, by its fingerprint: only it may receive the batch, any other
   * is refused before a frame moves (docs/protocol.md, "Remembered devices"). It must be
   * remembered now, and is named as it is now.
   */
  pinnedPeer(fingerprint: string): ExpectedPeer | IpcError {
    const device = this.#ports.devices.list().find((d) => d.fingerprint === fingerprint);
    if (device === undefined) return appError('ERR_NOT_REMEMBERED');
    return { fingerprint: device.fingerprint, name: device.name };
  }

  renameDevice(fingerprint: string, name: string): Promise<IpcResult<DevicesView>> {
    return this.changeDevices(() => this.#ports.devices.rename(fingerprint, name));
  }

  forgetDevice(fingerprint: string): Promise<IpcResult<DevicesView>> {
    return this.changeDevices(() => this.#ports.devices.forget(fingerprint));
  }

  /**
   * Turns a remembered device's quick save on or off; which offers it then takes unasked is
   * `autoAccepts` (src-shared/devices/auto-accept.ts) plus the surface's own place to save.
   */
  setDeviceAutoAccept(fingerprint: string, autoAccept: boolean): Promise<IpcResult<DevicesView>> {
    return this.changeDevices(() => this.#ports.devices.setAutoAccept(fingerprint, autoAccept));
  }

  /**
   * Applies a change to the device list, tells the screen, and answers with the new list; a
   * change the list cannot take is refused with ERR_DEVICE_LIST and its reason.
   */
  async changeDevices(change: () => Promise<unknown>): Promise<IpcResult<DevicesView>> {
    try {
      await change();
    } catch (error) {
      if (error instanceof DeviceListError) return refused('ERR_DEVICE_LIST', errorMessage(error));
      throw error;
    }
    const view = this.devicesView();
    this.#ports.notify.devices(view);
    return ok(view);
  }

  devicesView(): DevicesView {
    const { devices } = this.#ports;
    // A screen never needs a pair secret: it stays where the pair rooms are joined.
    const remembered = devices.list().map(({ pairSecret: _secret, ...device }) => device);
    return { ownName: devices.ownName(), remembered };
  }

  history(): HistoryEntry[] {
    return [...this.#ports.history.list()];
  }

  clearHistory(): Promise<readonly HistoryEntry[]> {
    return this.#changeHistory(() => this.#ports.history.clear());
  }

  /** A history turned off keeps nothing, not even what it held. */
  async keepHistoryChanged(keep: boolean): Promise<void> {
    if (!keep) await this.clearHistory();
  }

  /** A transfer is running or being set up (the nearby layer then ignores invitations). */
  get busy(): boolean {
    return this.#busy;
  }

  /** A transfer is on screen and has no outcome yet, or is still being set up. */
  get #busy(): boolean {
    return this.#shown !== undefined && !this.#shown.final;
  }

  #viewOf(shown: Shown, view: TransferView): void {
    // A transfer the person has left keeps closing but no longer owns the screen.
    if (this.#shown !== shown) return;
    if (FINAL_PHASES.has(view.phase)) shown.final = true;
    shown.batch = batchSeen(shown.batch, view);
    if (MET_PHASES.has(view.phase)) shown.met = true;
    if (isInlineText(view)) {
      // No prompt to answer: the screen keeps connecting until the text is there.
      if (shown.transfer === undefined) shown.acceptWhenStarted = true;
      else this.#acceptInline(shown, view);
      return;
    }
    this.#show(view);
    this.#record(shown, view);
  }

  /**
   * Every batch's outcome is kept once: a whole one, and one declined, cancelled or failed
   * with what arrived of it (docs/architecture.md, "The application core").
   */
  #record(shown: Shown, view: TransferView): void {
    if (shown.recorded) return;
    const entry = entryOf(view, shown);
    if (entry === undefined) return;
    shown.recorded = true;
    const { history, clock, notify } = this.#ports;
    if (!history.keeping()) return;
    const kept = entry(clock.now(), history.newId());
    this.#changeHistory(() => history.add(kept)).catch((error: unknown) => {
      notify.warning(historyNotRecorded(errorMessage(error)));
    });
  }

  #changeHistory(change: () => Promise<readonly HistoryEntry[]>): Promise<readonly HistoryEntry[]> {
    const changed = this.#writes.then(change).then((entries) => {
      this.#ports.notify.history(entries);
      return entries;
    });
    this.#writes = changed.catch(() => undefined);
    return changed;
  }

  /** A transfer that turns out not to be asking after all shows its prompt as any offer does. */
  #acceptInline(shown: Shown, view: TransferView): void {
    void shown.transfer?.answerOffer(true).then((taken) => {
      if (!taken && this.#shown === shown && !shown.final) this.#show(view);
    });
  }

  #leave(shown: Shown): void {
    this.#shown = undefined;
    shown.left = true;
    shown.transfer?.leave();
  }

  #show(view: TransferView): void {
    this.#view = view;
    this.#ports.notify.transfer(view);
  }
}
