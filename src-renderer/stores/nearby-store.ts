import { createStore, type StoreApi } from 'zustand/vanilla';
import { NO_NEARBY, type NearbyView } from '../../src-shared/app/nearby-core';

/** The devices a send reaches without a code, as the backend last told them. */
export interface NearbyState {
  view: NearbyView;
  apply(view: NearbyView): void;
}

export type NearbyStore = StoreApi<NearbyState>;

export function createNearbyStore(): NearbyStore {
  return createStore<NearbyState>()((set) => ({
    view: NO_NEARBY,
    apply: (view) => set({ view }),
  }));
}
