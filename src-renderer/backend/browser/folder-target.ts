import { resumableTarget } from '../../../src-shared/session/resumable-target';
import type { Folder } from './folder-access';
import { folderKeptFiles } from './folder-kept-files';
import { FolderPart } from './folder-part';
import type { SaveTarget } from './save-target';

/**
 * A folder the person chose (File System Access API, Chromium): the shared resumable target
 * (src-shared/session/resumable-target.ts) over it, each file written where its relative path
 * says, creating subfolders, so a sent folder arrives as a folder. Each file is staged as
 * `<name>.part` (folder-part.ts, which says what a browser can keep for a later try).
 * Translation only: what is kept, found and recorded is the shared target's.
 */
export function folderTarget(root: Folder): SaveTarget {
  const target = resumableTarget({
    folder: root.name,
    async place(path) {
      const parts = path.split('/');
      const name = parts.pop() ?? path;
      let folder = root;
      for (const part of parts) folder = await folder.getDirectoryHandle(part, { create: true });
      return {
        key: parts.join('/'),
        name,
        kept: folderKeptFiles(folder, name),
        create: (identity) => FolderPart.create(folder, name, identity),
        saved: (landed) => ({ name: [...parts, landed].join('/') }),
      };
    },
    wallClock: () => Date.now(),
  });
  return { ...target, label: root.name };
}

type DirectoryPicker = (options: {
  mode: 'readwrite';
  id?: string;
}) => Promise<FileSystemDirectoryHandle>;

/** `showDirectoryPicker` where the browser has it (Chromium on desktop, in a secure context). */
export function directoryPicker(): DirectoryPicker | undefined {
  const picker = (globalThis as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  return typeof picker === 'function' ? picker.bind(globalThis) : undefined;
}
