import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendResult, FerryBackend, SelectedItem } from '../backend/ferry-backend';
import type { RememberedDevice } from '../../src-shared/devices/remembered-devices';
import { succeeded, type NoticeStore } from './notice-store';

/** The files and folders waiting to be sent, and the text typed to send. */
export interface SelectionState {
  items: SelectedItem[];
  /**
   * The text in "Send a text", kept here rather than in the form so that a cancelled or failed
   * send finds it still there, as it finds its files.
   */
  text: string;
  setText(text: string): void;
  /**
   * The remembered device the files go to, the only one that may receive them (docs/protocol.md,
   * "Remembered devices"); null sends to whoever types the code.
   */
  to: SendTarget | null;
  sendTo(to: SendTarget | null): void;
  /** A picker or a drop is being read; the choose buttons wait. */
  pending: boolean;
  /** Adds what is not already selected, keeping the order things were chosen in. */
  add(items: readonly SelectedItem[]): void;
  remove(id: string): void;
  clear(): void;
  addDropped(data: DataTransfer): Promise<void>;
  pickFiles(): Promise<void>;
  pickFolder(): Promise<void>;
}

export type SelectionStore = StoreApi<SelectionState>;

/** A remembered device, as a send pinned to it names it. */
export type SendTarget = Pick<RememberedDevice, 'fingerprint' | 'name'>;

export const selectionBytes = (items: readonly SelectedItem[]): number =>
  items.reduce((sum, item) => sum + item.size, 0);

export const selectionFiles = (items: readonly SelectedItem[]): number =>
  items.reduce((sum, item) => sum + item.fileCount, 0);

export function createSelectionStore(backend: FerryBackend, notice: NoticeStore): SelectionStore {
  return createStore<SelectionState>()((set, get) => {
    async function adding(action: Promise<BackendResult<SelectedItem[]>>): Promise<void> {
      // A new action: what went wrong before is no longer the news.
      notice.getState().clear();
      set({ pending: true });
      const result = await action;
      set({ pending: false });
      if (succeeded(result, notice)) get().add(result.value);
    }

    return {
      items: [],
      text: '',
      setText: (text) => set({ text }),
      to: null,
      sendTo: (to) => set({ to }),
      pending: false,
      add: (added) =>
        set((state) => {
          const known = new Set(state.items.map((item) => item.id));
          const fresh = added.filter((item) => {
            if (known.has(item.id)) return false;
            known.add(item.id);
            return true;
          });
          return fresh.length === 0 ? state : { items: [...state.items, ...fresh] };
        }),
      remove: (id) => set((state) => ({ items: state.items.filter((item) => item.id !== id) })),
      clear: () => set({ items: [], text: '', to: null }),
      addDropped: (data) => adding(backend.addDropped(data)),
      pickFiles: () => adding(backend.pickFiles()),
      pickFolder: () => adding(backend.pickFolder()),
    };
  });
}
