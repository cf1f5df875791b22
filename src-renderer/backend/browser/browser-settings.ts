import { get, set } from 'idb-keyval';
import * as v from 'valibot';
import { DeviceNameSchema } from '../../../src-shared/ipc/value-schemas';
import { withStore } from './browser-identity';

const CONFIRM_WORDS_KEY = 'confirm-words';
const DEVICE_NAME_KEY = 'device-name';

/** Whether the person confirms the words before any file moves: off unless they turned it on. */
export async function loadConfirmWords(): Promise<boolean> {
  try {
    return (await withStore((db) => get<unknown>(CONFIRM_WORDS_KEY, db))) === true;
  } catch {
    return false;
  }
}

/** False when IndexedDB is unavailable, and the choice lasts for this page only. */
export async function saveConfirmWords(confirm: boolean): Promise<boolean> {
  try {
    await withStore((db) => set(CONFIRM_WORDS_KEY, confirm, db));
    return true;
  } catch {
    return false;
  }
}

/**
 * The name the person gave this page (docs/protocol.md, "The name shown"); undefined while they
 * gave none, or where IndexedDB holds nothing usable.
 */
export async function loadDeviceName(): Promise<string | undefined> {
  try {
    const stored = await withStore((db) => get<unknown>(DEVICE_NAME_KEY, db));
    const read = v.safeParse(DeviceNameSchema, stored);
    return read.success ? read.output : undefined;
  } catch {
    return undefined;
  }
}

/** Rejects when IndexedDB is unavailable: the name then lasts for this page only. */
export async function saveDeviceName(name: string): Promise<void> {
  await withStore((db) => set(DEVICE_NAME_KEY, name, db));
}
