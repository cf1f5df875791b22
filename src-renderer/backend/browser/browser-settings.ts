import { get, set } from 'idb-keyval';
import { withStore } from './browser-identity';

const CONFIRM_WORDS_KEY = 'confirm-words';

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
