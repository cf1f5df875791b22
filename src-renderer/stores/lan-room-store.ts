import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DiscoveredRoom, FerryBackend, LanRoomView } from '../backend/ferry-backend';
import { succeeded, type NoticeStore } from './notice-store';

/** This device's LAN room and the rooms other Ferry apps announce on the network. */
export interface LanRoomState {
  room: LanRoomView;
  discovered: DiscoveredRoom[];
  pending: boolean;
  applyRoom(room: LanRoomView): void;
  applyDiscovered(rooms: DiscoveredRoom[]): void;
  setHosting(enabled: boolean): Promise<void>;
}

export type LanRoomStore = StoreApi<LanRoomState>;

export function createLanRoomStore(backend: FerryBackend, notice: NoticeStore): LanRoomStore {
  return createStore<LanRoomState>()((set) => ({
    room: { state: 'off' },
    discovered: [],
    pending: false,
    applyRoom: (room) => set({ room }),
    applyDiscovered: (discovered) => set({ discovered }),
    async setHosting(enabled) {
      set({ pending: true });
      const result = await backend.setLanRoom(enabled);
      set({ pending: false });
      if (succeeded(result, notice)) set({ room: result.value });
    },
  }));
}
