import type { KeptFileFolder, KeptFileReader } from '../../../src-shared/verify/kept-file-folder';
import { fileIn, removeQuietly, writeText, type Folder } from './folder-access';
import { FolderPart } from './folder-part';

/**
 * A folder of a chosen destination for the shared lookup of kept files
 * (src-shared/verify/kept-files.ts) and its receipts (receipts.ts), through the File System
 * Access API. `name` is the file
 * being received, whose folder this is.
 */
export function folderKeptFiles(folder: Folder, name: string): KeptFileFolder<FolderPart> {
  return {
    async open(entry): Promise<KeptFileReader | undefined> {
      const contents = await (await fileIn(folder, entry))?.getFile();
      if (contents === undefined) return undefined;
      return {
        size: contents.size,
        modified: contents.lastModified,
        read: async (start, end) => new Uint8Array(await contents.slice(start, end).arrayBuffer()),
        close: async () => undefined,
      };
    },
    async reopen(partName, kept) {
      const file = await fileIn(folder, partName);
      if (file === undefined) throw new Error(`${partName} is gone`);
      return FolderPart.reopen(folder, name, file, { ...kept, blocks: [...kept.blocks] });
    },
    async names() {
      const names: string[] = [];
      for await (const entry of folder.keys()) names.push(entry);
      return names;
    },
    remove: (entry) => removeQuietly(folder, entry),
    // A writable stream reaches the file only when closed, so either way it changes all at once.
    async append(entry, text) {
      const before = (await (await fileIn(folder, entry))?.getFile())?.text();
      await writeText(folder, entry, ((await before) ?? '') + text);
    },
    replace: (entry, text) => writeText(folder, entry, text),
  };
}
