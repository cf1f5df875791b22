import { hostname } from 'node:os';
import { cleanDeviceName } from '../../src-shared/devices/device-name';
import type { DeviceSetting } from '../../src-shared/devices/peer-identity';
import { openDeviceBook, type DeviceBook } from './device-book';
import { loadNativeIdentity, type NativeIdentity } from './native-identity';

/**
 * One native installation's identity and memory of other devices (docs/protocol.md,
 * "Remembered devices"), all in one data folder: the desktop app's user-data folder, or the
 * command line's (cli/data-folder.ts).
 */
export interface Installation {
  identity: NativeIdentity;
  book: DeviceBook;
  /** What the engine's sessions announce and look up. */
  setting: DeviceSetting;
}

/** A name for this device until the person gives one: the computer's own. */
export function defaultDeviceName(): string {
  return cleanDeviceName(hostname()) ?? 'Ferry';
}

export async function openInstallation(folder: string, ownName: string): Promise<Installation> {
  const [identity, book] = await Promise.all([loadNativeIdentity(folder), openDeviceBook(folder)]);
  return { identity, book, setting: { ownName, directory: book } };
}
