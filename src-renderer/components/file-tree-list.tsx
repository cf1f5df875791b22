import type { ReactNode } from 'react';
import { countOf } from '../../src-shared/format/count-of';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { fileTree, type TreeNode } from '../../src-shared/transfer/file-tree';

type Listed = { name: string; size: number };

/** One level of the tree: folders with their totals and what they hold, then files. */
function TreeLevel<F extends Listed>({
  nodes,
  leaf,
}: {
  nodes: TreeNode<F>[];
  leaf: (file: F, name: string) => ReactNode;
}) {
  return nodes.map((node, index) =>
    node.kind === 'folder' ? (
      <li key={`${index}:${node.name}/`} className="file-tree-folder">
        <span className="file-name">{`${node.name}/`}</span>
        <span className="file-size">
          {countOf(node.fileCount, 'file')}, {formatBytes(node.size)}
        </span>
        <ul aria-label={`In ${node.name}`}>
          <TreeLevel nodes={node.children} leaf={leaf} />
        </ul>
      </li>
    ) : (
      <li key={`${index}:${node.name}`}>{leaf(node.file, node.name)}</li>
    ),
  );
}

/**
 * A batch's files as a tree of their folders, the same on the prompt, the done screen and in the
 * history, so a batch reads the same wherever it is shown. `leaf` draws a file's row from the
 * file and its own name (without its folders).
 */
export function FileTreeList<F extends Listed>({
  files,
  label,
  className = 'file-list',
  scrolls = true,
  leaf,
}: {
  files: readonly F[];
  label: string;
  className?: string;
  /** A list that scrolls on its own takes the keyboard's focus, so it can be scrolled. */
  scrolls?: boolean;
  leaf: (file: F, name: string) => ReactNode;
}) {
  return (
    <ul className={`${className} file-tree`} aria-label={label} tabIndex={scrolls ? 0 : undefined}>
      <TreeLevel nodes={fileTree(files)} leaf={leaf} />
    </ul>
  );
}
