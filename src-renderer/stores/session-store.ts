import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendError } from '../backend/ferry-backend';

/** Whether the UI has the backend's first snapshot and is following its updates. */
export type Session =
  { state: 'starting' } | { state: 'ready' } | { state: 'failed'; error: BackendError };

export interface SessionState {
  session: Session;
  ready(): void;
  fail(error: BackendError): void;
}

export type SessionStore = StoreApi<SessionState>;

export function createSessionStore(): SessionStore {
  return createStore<SessionState>()((set) => ({
    session: { state: 'starting' },
    ready: () => set({ session: { state: 'ready' } }),
    fail: (error) => set({ session: { state: 'failed', error } }),
  }));
}
