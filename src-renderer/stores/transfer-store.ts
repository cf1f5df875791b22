import { createStore, type StoreApi } from 'zustand/vanilla';
import { normalizeCode } from '../../src-shared/codes';
import { IDLE_TRANSFER, type TransferView } from '../../src-shared/transfer/transfer-view';
import type { BackendResult, FerryBackend, SelectedItem } from '../backend/ferry-backend';
import { succeeded, type NoticeStore } from './notice-store';

export interface TransferState {
  view: TransferView;
  /** A start or answer is on its way; its button waits instead of firing twice. */
  pending: boolean;
  /** The folder picked for the offer on screen, instead of the default download folder. */
  destination: string | null;
  apply(view: TransferView): void;
  startSend(items: readonly SelectedItem[]): Promise<void>;
  /**
   * Takes the code as typed; it is normalized here, so every caller sends the canonical form.
   * `key`: the secret of the receive link the code came from.
   */
  startReceive(typed: string, key?: string): Promise<void>;
  changeDestination(): Promise<void>;
  answerOffer(accept: boolean): Promise<void>;
  cancel(): Promise<void>;
  /** True once the backend is back to idle. */
  dismiss(): Promise<boolean>;
}

export type TransferStore = StoreApi<TransferState>;

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
      apply: (view) =>
        set((state) => ({
          view,
          destination: view.phase === 'awaiting-acceptance' ? state.destination : null,
        })),
      startSend: (items) => starting(backend.startSend(items)),
      startReceive: (typed, key) => starting(backend.startReceive(normalizeCode(typed), key)),
      async changeDestination() {
        const result = await backend.chooseDestination();
        if (succeeded(result, notice) && result.value !== null) set({ destination: result.value });
      },
      answerOffer: (accept) =>
        starting(backend.answerOffer(accept, (accept && get().destination) || undefined)),
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
