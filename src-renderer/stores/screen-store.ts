import { createStore, type StoreApi } from 'zustand/vanilla';

export type Screen = 'send' | 'receive' | 'settings';

export interface ScreenState {
  screen: Screen;
  show(screen: Screen): void;
}

export type ScreenStore = StoreApi<ScreenState>;

export function createScreenStore(): ScreenStore {
  return createStore<ScreenState>()((set) => ({
    screen: 'send',
    show: (screen) => set({ screen }),
  }));
}
