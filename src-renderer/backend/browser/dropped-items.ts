import { folderItem, singleFileItem, type SourceFile, type SourceItem } from './source-files';

/**
 * The parts of the File and Directory Entries API a drop needs; every current browser has them
 * under these names, and a test can build them without a real drag.
 */
export interface DroppedEntry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  /** Starts with `/`: the entry's path within the drop. */
  readonly fullPath: string;
}

export interface DroppedFileEntry extends DroppedEntry {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}

export interface DroppedDirectoryEntry extends DroppedEntry {
  createReader(): {
    readEntries(
      success: (entries: DroppedEntry[]) => void,
      failure?: (error: unknown) => void,
    ): void;
  };
}

const isFileEntry = (entry: DroppedEntry): entry is DroppedFileEntry => entry.isFile;
const isDirectoryEntry = (entry: DroppedEntry): entry is DroppedDirectoryEntry => entry.isDirectory;

/**
 * What a drop holds: an entry of the file system, or a file that has none (a virtual file from a
 * mail or photo app, an image dragged from a page), which the browser hands over as it is.
 */
export type Dropped = DroppedEntry | File;

/**
 * The entries of a drop, read while the drop event runs: the browser empties the DataTransfer
 * as soon as it returns, but the entries and files stay readable.
 */
export function entriesOf(data: DataTransfer): Dropped[] {
  const entries: Dropped[] = [];
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = (item.webkitGetAsEntry?.() ?? null) as DroppedEntry | null;
    const dropped = entry ?? item.getAsFile();
    if (dropped) entries.push(dropped);
  }
  return entries;
}

function fileOf(entry: DroppedFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** A directory's children; readEntries answers in batches and an empty batch means the end. */
async function childrenOf(entry: DroppedDirectoryEntry): Promise<DroppedEntry[]> {
  const reader = entry.createReader();
  const children: DroppedEntry[] = [];
  for (;;) {
    const batch = await new Promise<DroppedEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

async function filesUnder(entry: DroppedDirectoryEntry): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const child of await childrenOf(entry)) {
    if (isFileEntry(child)) {
      files.push({ file: await fileOf(child), path: child.fullPath.replace(/^\/+/, '') });
    } else if (isDirectoryEntry(child)) {
      files.push(...(await filesUnder(child)));
    }
  }
  return files;
}

/** Dropped files as they are, dropped folders with every file inside and its relative path. */
export async function itemsFromEntries(entries: readonly Dropped[]): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for (const entry of entries) {
    if (entry instanceof File) items.push(singleFileItem(entry));
    else if (isFileEntry(entry)) items.push(singleFileItem(await fileOf(entry)));
    else if (isDirectoryEntry(entry)) {
      const folder = folderItem(entry.name, await filesUnder(entry));
      if (folder) items.push(folder);
    }
  }
  return items;
}
