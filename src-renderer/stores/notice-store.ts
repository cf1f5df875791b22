import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendError, BackendResult } from '../backend/ferry-backend';

/** The code of a notice that is a transfer's warning rather than a failed action. */
export const TRANSFER_WARNING = 'TRANSFER_WARNING';

/**
 * The last action that failed, or the transfer's last warning, shown until the person dismisses
 * it or moves on.
 */
export interface NoticeState {
  notice: BackendError | null;
  show(error: BackendError): void;
  clear(): void;
}

export type NoticeStore = StoreApi<NoticeState>;

export function createNoticeStore(): NoticeStore {
  return createStore<NoticeState>()((set) => ({
    notice: null,
    show: (notice) => set({ notice }),
    clear: () => set({ notice: null }),
  }));
}

/** True when the action worked; otherwise its error becomes the notice. */
export function succeeded<T>(
  result: BackendResult<T>,
  notice: NoticeStore,
): result is { ok: true; value: T } {
  if (!result.ok) notice.getState().show(result.error);
  return result.ok;
}
