import { withCollisionSuffix } from '../../../src-shared/names/collision-suffix';
import type { SaveTarget } from './save-target';

/** Gives up looking for a free `name (n).ext` after this many, as a folder that full is a mistake. */
export const MAX_COLLISION_SUFFIX = 999;

interface OpenFile {
  directory: FileSystemDirectoryHandle;
  name: string;
  savedAs: string;
  writable: FileSystemWritableFileStream;
}

async function exists(directory: FileSystemDirectoryHandle, name: string): Promise<boolean> {
  try {
    await directory.getFileHandle(name);
    return true;
  } catch (error) {
    // A folder of that name counts as taken too (TypeMismatchError).
    return !(error instanceof DOMException && error.name === 'NotFoundError');
  }
}

async function freeName(directory: FileSystemDirectoryHandle, name: string): Promise<string> {
  if (!(await exists(directory, name))) return name;
  for (let n = 1; n <= MAX_COLLISION_SUFFIX; n += 1) {
    const candidate = withCollisionSuffix(name, n);
    if (!(await exists(directory, candidate))) return candidate;
  }
  throw new Error(`no free name for ${name}`);
}

/**
 * A folder the person chose (File System Access API, Chromium): each file is written where its
 * relative path says, creating subfolders, so a sent folder arrives as a folder. The browser
 * stages a writable stream's bytes in a swap file and puts them in place only on close, which
 * is the `.part` rule (docs/protocol.md, "Per-file sequence"); a discard aborts the stream and removes the name it took.
 */
export function folderTarget(root: FileSystemDirectoryHandle): SaveTarget {
  const open = new Map<number, OpenFile>();

  function entry(index: number): OpenFile {
    const file = open.get(index);
    if (file === undefined) throw new Error(`file ${index + 1} is not open`);
    return file;
  }

  return {
    label: root.name,
    folder: root.name,

    async open(index, path) {
      const parts = path.split('/');
      const name = parts.pop() ?? path;
      let directory = root;
      for (const part of parts)
        directory = await directory.getDirectoryHandle(part, { create: true });
      const chosen = await freeName(directory, name);
      const handle = await directory.getFileHandle(chosen, { create: true });
      const writable = await handle.createWritable();
      open.set(index, {
        directory,
        name: chosen,
        savedAs: [...parts, chosen].join('/'),
        writable,
      });
    },

    async write(index, bytes) {
      await entry(index).writable.write(bytes as Uint8Array<ArrayBuffer>);
    },

    async commit(index) {
      const file = entry(index);
      open.delete(index);
      await file.writable.close();
      return { name: file.savedAs };
    },

    async discard(index) {
      const file = open.get(index);
      if (file === undefined) return;
      open.delete(index);
      await file.writable.abort().catch(() => undefined);
      await file.directory.removeEntry(file.name).catch(() => undefined);
    },
  };
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
