import { createStore, type StoreApi } from 'zustand/vanilla';
import { normalizeCode } from '../../src-shared/codes';
import { readCodeOrLink, type ReceiveFragment } from '../../src-shared/codes/receive-fragment';

/** The code as typed in the receive field, kept so a failed attempt can be tried again. */
export interface CodeDraftState {
  draft: string;
  /** The receive link the page was opened from: its key goes with its code, and only with it. */
  link: ReceiveFragment | null;
  setDraft(draft: string): void;
  openLink(link: ReceiveFragment): void;
}

/** The secret link's key for what is typed now: the link's, while its code is what is typed. */
export function keyFor(state: Pick<CodeDraftState, 'draft' | 'link'>): string | undefined {
  const { link } = state;
  return link !== null && normalizeCode(state.draft) === link.code ? link.key : undefined;
}

export type CodeDraftStore = StoreApi<CodeDraftState>;

export function createCodeDraftStore(): CodeDraftStore {
  return createStore<CodeDraftState>()((set) => ({
    draft: '',
    link: null,
    // A whole receive link pasted into the field counts as opening it: its code is what is
    // typed, and its key goes with it (docs/protocol.md, "Secret link").
    setDraft: (draft) => {
      const pasted = draft.includes('#') ? readCodeOrLink(draft) : null;
      if (pasted?.key !== undefined) set({ draft: pasted.code, link: pasted });
      else set({ draft });
    },
    openLink: (link) => set({ draft: link.code, link }),
  }));
}
