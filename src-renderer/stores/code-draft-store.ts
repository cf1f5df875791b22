import { createStore, type StoreApi } from 'zustand/vanilla';

/** The code as typed in the receive field, kept so a failed attempt can be tried again. */
export interface CodeDraftState {
  draft: string;
  setDraft(draft: string): void;
}

export type CodeDraftStore = StoreApi<CodeDraftState>;

export function createCodeDraftStore(): CodeDraftStore {
  return createStore<CodeDraftState>()((set) => ({
    draft: '',
    setDraft: (draft) => set({ draft }),
  }));
}
