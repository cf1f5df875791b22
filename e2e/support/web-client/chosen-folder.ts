import type { BrowserContext, Page } from '@playwright/test';
import { RECEIPTS_NAME } from '../../../src-shared/verify/receipts';

/** The name of the folder the stand-in picker hands out. */
export const CHOSEN_FOLDER = 'Received';

/**
 * Stands in for the person choosing a folder in Chromium's directory picker, a native dialog
 * Playwright cannot drive: `showDirectoryPicker` answers with a folder in the page's origin-private
 * file system, a real FileSystemDirectoryHandle on which the File System Access calls behave as on
 * a folder on disk.
 */
export async function pickFoldersPrivately(context: BrowserContext): Promise<void> {
  await context.addInitScript((name) => {
    Object.defineProperty(window, 'showDirectoryPicker', {
      configurable: true,
      value: async () =>
        (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true }),
    });
  }, CHOSEN_FOLDER);
}

/**
 * Every file in the chosen folder as relative path → SHA-256, read back inside the page; the index
 * of received files Ferry keeps in each folder (src-shared/verify/receipts.ts) left out.
 */
export function digestChosenFolder(page: Page): Promise<Record<string, string>> {
  return page.evaluate(
    async ({ name, receipts }) => {
      const digests: Record<string, string> = {};
      const walk = async (directory: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
        for await (const [entryName, handle] of directory as unknown as AsyncIterable<
          [string, FileSystemHandle]
        >) {
          const path = `${prefix}${entryName}`;
          if (entryName === receipts) continue;
          if (handle.kind === 'directory') {
            await walk(handle as FileSystemDirectoryHandle, `${path}/`);
          } else {
            const bytes = await (await (handle as FileSystemFileHandle).getFile()).arrayBuffer();
            const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
            digests[path] = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join(
              '',
            );
          }
        }
      };
      await walk(await (await navigator.storage.getDirectory()).getDirectoryHandle(name), '');
      return digests;
    },
    { name: CHOSEN_FOLDER, receipts: RECEIPTS_NAME },
  );
}

/** The names of the files in the chosen folder, top level only, sorted; read inside the page. */
export function listChosenFolder(page: Page): Promise<string[]> {
  return page.evaluate(async (name) => {
    const names: string[] = [];
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
    for await (const entry of (folder as unknown as { keys(): AsyncIterable<string> }).keys()) {
      names.push(entry);
    }
    return names.sort();
  }, CHOSEN_FOLDER);
}

/** Writes `bytes` as `name` at the top of the chosen folder, as the person's own file would be. */
export async function putInChosenFolder(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.evaluate(
    async ({ folderName, fileName, base64 }) => {
      const folder = await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle(folderName, { create: true });
      const writable = await (
        await folder.getFileHandle(fileName, { create: true })
      ).createWritable();
      await writable.write(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
      await writable.close();
    },
    { folderName: CHOSEN_FOLDER, fileName: name, base64: bytes.toString('base64') },
  );
}
