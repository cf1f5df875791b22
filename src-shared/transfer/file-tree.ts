/** A folder of a batch as a tree shows it: its own name, what it holds, and its totals. */
export interface FolderNode<F> {
  kind: 'folder';
  /** This folder's own name, not its path. */
  name: string;
  children: TreeNode<F>[];
  fileCount: number;
  size: number;
}

export interface FileNode<F> {
  kind: 'file';
  /** The file's own name, without its folders. */
  name: string;
  file: F;
}

export type TreeNode<F> = FolderNode<F> | FileNode<F>;

/**
 * The batch's `/`-separated relative paths as a tree, each folder where its first file put it and
 * files in their order, so the tree reads in the order the files will come.
 */
export function fileTree<F extends { name: string; size: number }>(
  files: readonly F[],
): TreeNode<F>[] {
  const root: FolderNode<F> = { kind: 'folder', name: '', children: [], fileCount: 0, size: 0 };
  for (const file of files) {
    const parts = file.name.split('/');
    const leaf = parts.pop() ?? file.name;
    let folder = root;
    folder.fileCount += 1;
    folder.size += file.size;
    for (const part of parts) {
      let next = folder.children.find(
        (child): child is FolderNode<F> => child.kind === 'folder' && child.name === part,
      );
      if (next === undefined) {
        next = { kind: 'folder', name: part, children: [], fileCount: 0, size: 0 };
        folder.children.push(next);
      }
      next.fileCount += 1;
      next.size += file.size;
      folder = next;
    }
    folder.children.push({ kind: 'file', name: leaf, file });
  }
  return root.children;
}
