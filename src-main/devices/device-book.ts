import { join } from 'node:path';
import {
  forget,
  readStoredDevices,
  remember,
  rename,
  setAutoAccept,
  type DeviceDirectory,
  type RememberedDevice,
} from '../../src-shared/devices/remembered-devices';
import { openJsonFileStore } from '../storage/json-file-store';

/** The devices a native installation remembers, kept in `devices.json` beside its identity. */
export interface DeviceBook extends DeviceDirectory {
  list(): readonly RememberedDevice[];
  /**
   * Each rejects with a DeviceListError a person can read when the change cannot be made.
   * `pairSecret` is the one agreed on the remembered connection (docs/protocol.md, "Pair rooms").
   */
  remember(
    fingerprint: string,
    name: string,
    pairSecret?: string,
  ): Promise<readonly RememberedDevice[]>;
  rename(fingerprint: string, name: string): Promise<readonly RememberedDevice[]>;
  forget(fingerprint: string): Promise<readonly RememberedDevice[]>;
  setAutoAccept(fingerprint: string, autoAccept: boolean): Promise<readonly RememberedDevice[]>;
}

const DEVICES_FILE = 'devices.json';

export async function openDeviceBook(folder: string): Promise<DeviceBook> {
  const store = await openJsonFileStore<readonly RememberedDevice[]>(
    join(folder, DEVICES_FILE),
    readStoredDevices,
    [],
  );
  return {
    list: () => store.get(),
    find: (fingerprint) => store.get().find((device) => device.fingerprint === fingerprint),
    remember: (fingerprint, name, pairSecret) =>
      store.update((devices) => remember(devices, fingerprint, name, Date.now(), pairSecret)),
    rename: (fingerprint, name) => store.update((devices) => rename(devices, fingerprint, name)),
    forget: (fingerprint) => store.update((devices) => forget(devices, fingerprint)),
    setAutoAccept: (fingerprint, autoAccept) =>
      store.update((devices) => setAutoAccept(devices, fingerprint, autoAccept)),
  };
}
