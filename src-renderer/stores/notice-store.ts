import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendError, BackendResult } from '../backend/ferry-backend';

/** The last action that failed, shown until the person dismisses it or moves on. */
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
