import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendResult, DevicesView, FerryBackend } from '../backend/ferry-backend';

/**
 * This device's name and the devices it remembers (docs/protocol.md, "Remembered devices").
 * Changes answer with the backend's result rather than a notice: the form that asked shows a
 * refusal beside itself.
 */
export interface DevicesState {
  /** Null only until the first snapshot arrives. */
  devices: DevicesView | null;
  apply(devices: DevicesView): void;
  rememberPeer(name: string): Promise<BackendResult<DevicesView>>;
  rename(fingerprint: string, name: string): Promise<BackendResult<DevicesView>>;
  renameSelf(name: string): Promise<BackendResult<DevicesView>>;
  forget(fingerprint: string): Promise<BackendResult<DevicesView>>;
  setAutoAccept(fingerprint: string, autoAccept: boolean): Promise<BackendResult<DevicesView>>;
}

export type DevicesStore = StoreApi<DevicesState>;

export function createDevicesStore(backend: FerryBackend): DevicesStore {
  return createStore<DevicesState>()((set) => {
    async function applied(
      change: Promise<BackendResult<DevicesView>>,
    ): Promise<BackendResult<DevicesView>> {
      const result = await change;
      if (result.ok) set({ devices: result.value });
      return result;
    }
    return {
      devices: null,
      apply: (devices) => set({ devices }),
      rememberPeer: (name) => applied(backend.rememberPeer(name)),
      rename: (fingerprint, name) => applied(backend.renameDevice(fingerprint, name)),
      renameSelf: (name) => applied(backend.renameSelf(name)),
      forget: (fingerprint) => applied(backend.forgetDevice(fingerprint)),
      setAutoAccept: (fingerprint, autoAccept) =>
        applied(backend.setDeviceAutoAccept(fingerprint, autoAccept)),
    };
  });
}
