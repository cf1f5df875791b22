import { createStore, type StoreApi } from 'zustand/vanilla';
import { normalizeCode } from '../../src-shared/codes';
import { CODE_LIFETIME_MS } from '../../src-shared/signaling/limits';
import {
  IDLE_TRANSFER,
  type OfferPacking,
  type TransferView,
} from '../../src-shared/transfer/transfer-view';
import type {
  BackendResult,
  FerryBackend,
  NearbyBatch,
  SelectedItem,
} from '../backend/ferry-backend';
import { succeeded, type NoticeStore } from './notice-store';

export interface TransferState {
  view: TransferView;
  /** A start or answer is on its way; its button waits instead of firing twice. */
  pending: boolean;
  /** The folder picked for the offer on screen, instead of the default download folder. */
  destination: string | null;
  /** How the offer on screen is saved, when it comes with a `zip` choice. */
  packing: OfferPacking;
  /**
   * When the code on screen stops working, in this page's `Date.now()` time: counted from the
   * moment it was first shown, so at worst a moment later than the server's own deadline.
   */
  codeExpiresAt: number | null;
  /**
   * How long the files took to move, from the first progress to done, in this page's time; a
   * lost link restored on the way counts in. Null until a transfer is done.
   */
  elapsedMs: number | null;
  /** When the files of the transfer on screen started moving. */
  movingSince: number | null;
  apply(view: TransferView): void;
  /** `to`: the fingerprint of the only remembered device that may receive the files. */
  startSend(items: readonly SelectedItem[], to?: string): Promise<void>;
  /** Sends `text` as a text message (docs/protocol.md, "Text messages"). */
  startSendText(text: string): Promise<void>;
  /** Sends to the nearby device `key`, with no code (docs/architecture.md, "Nearby devices"). */
  startSendNearby(key: string, batch: NearbyBatch): Promise<void>;
  /** Reads a drop on a nearby device's tile and sends what it held to that device. */
  sendDroppedTo(key: string, data: DataTransfer): Promise<void>;
  /**
   * Takes the code as typed; it is normalized here, so every caller sends the canonical form.
   * `key`: the secret of the receive link the code came from.
   */
  startReceive(typed: string, key?: string): Promise<void>;
  changeDestination(): Promise<void>;
  choosePacking(packing: OfferPacking): void;
  answerOffer(accept: boolean): Promise<void>;
  /** Whether the words match, asked with "Confirm the words" on (the view's `wordsAsked`). */
  answerWords(match: boolean): Promise<void>;
  cancel(): Promise<void>;
  /** True once the backend is back to idle. */
  dismiss(): Promise<boolean>;
}

export type TransferStore = StoreApi<TransferState>;

/** The phases during which the files of one transfer move, a lost link restored included. */
const MOVING: ReadonlySet<TransferView['phase']> = new Set(['transferring', 'reconnecting']);

function timingOf(
  view: TransferView,
  before: TransferState,
): Pick<TransferState, 'elapsedMs' | 'movingSince'> {
  const now = Date.now();
  if (MOVING.has(view.phase)) return { elapsedMs: null, movingSince: before.movingSince ?? now };
  if (view.phase === 'done' && before.movingSince !== null) {
    return { elapsedMs: now - before.movingSince, movingSince: null };
  }
  return { elapsedMs: view.phase === 'done' ? before.elapsedMs : null, movingSince: null };
}

/** The code's deadline, kept while the same code stays on screen (docs/protocol.md, "Short codes"). */
function expiryOf(view: TransferView, before: TransferState): number | null {
  if (view.phase !== 'waiting-for-peer') return null;
  const same = before.view.phase === 'waiting-for-peer' && before.view.code === view.code;
  return same && before.codeExpiresAt !== null
    ? before.codeExpiresAt
    : Date.now() + CODE_LIFETIME_MS;
}

export function createTransferStore(backend: FerryBackend, notice: NoticeStore): TransferStore {
  return createStore<TransferState>()((set, get) => {
    async function starting(action: Promise<BackendResult<unknown>>): Promise<void> {
      // A new action: what went wrong before is no longer the news.
      notice.getState().clear();
      set({ pending: true });
      const result = await action;
      set({ pending: false });
      succeeded(result, notice);
    }

    return {
      view: IDLE_TRANSFER,
      pending: false,
      destination: null,
      packing: 'zip',
      codeExpiresAt: null,
      elapsedMs: null,
      movingSince: null,
      apply: (view) =>
        set((state) => ({
          view,
          destination: view.phase === 'awaiting-acceptance' ? state.destination : null,
          packing: view.phase === 'awaiting-acceptance' ? state.packing : 'zip',
          codeExpiresAt: expiryOf(view, state),
          ...timingOf(view, state),
        })),
      startSend: (items, to) => starting(backend.startSend(items, to)),
      startSendText: (text) => starting(backend.startSendText(text)),
      startSendNearby: (key, batch) => starting(backend.startSendNearby(key, batch)),
      sendDroppedTo: (key, data) =>
        // Read at once: the browser empties the DataTransfer when the drop event returns.
        starting(
          backend
            .addDropped(data)
            .then((dropped) =>
              dropped.ok ? backend.startSendNearby(key, { items: dropped.value }) : dropped,
            ),
        ),
      startReceive: (typed, key) => starting(backend.startReceive(normalizeCode(typed), key)),
      async changeDestination() {
        const result = await backend.chooseDestination();
        if (succeeded(result, notice) && result.value !== null) set({ destination: result.value });
      },
      choosePacking: (packing) => set({ packing }),
      answerOffer(accept) {
        const { view, destination, packing } = get();
        const folder = (accept && destination) || undefined;
        // A chosen folder keeps the folders: the choice only counts for the downloads.
        const asked = accept && folder === undefined && view.phase === 'awaiting-acceptance';
        return starting(
          asked && view.zip !== undefined
            ? backend.answerOffer(accept, folder, packing)
            : backend.answerOffer(accept, folder),
        );
      },
      answerWords: (match) => starting(backend.answerWords(match)),
      async cancel() {
        succeeded(await backend.cancel(), notice);
      },
      async dismiss() {
        notice.getState().clear();
        return succeeded(await backend.dismiss(), notice);
      },
    };
  });
}
