import type { SelectedItem } from '../ferry-backend';

/** One file to send: the browser's handle on it and the `/`-separated path the receiver sees. */
export interface SourceFile {
  file: File;
  path: string;
}

/** A chosen file or folder and the files it stands for, in the order they will be sent. */
export interface SourceItem {
  item: SelectedItem;
  files: SourceFile[];
}

/** Picking the same file again is the same item, so the selection does not list it twice. */
function fileId(source: SourceFile): string {
  return `file:${source.path}:${source.file.size}:${source.file.lastModified}`;
}

export function singleFileItem(file: File): SourceItem {
  const source = { file, path: file.name };
  return {
    item: {
      id: fileId(source),
      name: file.name,
      size: file.size,
      isDirectory: false,
      fileCount: 1,
    },
    files: [source],
  };
}

/**
 * A folder as one item. `files` carry paths that start with the folder's own name, as
 * `webkitRelativePath` and dropped entries do; a folder with nothing in it is no item.
 */
export function folderItem(name: string, files: SourceFile[]): SourceItem | undefined {
  if (files.length === 0) return undefined;
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const size = sorted.reduce((sum, source) => sum + source.file.size, 0);
  const newest = Math.max(...sorted.map((source) => source.file.lastModified));
  return {
    item: {
      id: `folder:${name}:${sorted.length}:${size}:${newest}`,
      name,
      size,
      isDirectory: true,
      fileCount: sorted.length,
    },
    files: sorted,
  };
}

/**
 * Files from a folder picker (`webkitdirectory`), each with its `webkitRelativePath`, grouped by
 * the folder they came from.
 */
export function foldersFromRelativePaths(files: readonly File[]): SourceItem[] {
  const groups = new Map<string, SourceFile[]>();
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    const root = path.includes('/') ? path.slice(0, path.indexOf('/')) : '';
    if (root === '') continue;
    const group = groups.get(root) ?? [];
    group.push({ file, path });
    groups.set(root, group);
  }
  return [...groups].flatMap(([root, group]) => folderItem(root, group) ?? []);
}
