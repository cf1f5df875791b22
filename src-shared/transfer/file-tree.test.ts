import { describe, expect, it } from 'vitest';
import { fileTree } from './file-tree';

describe('a batch as a tree', () => {
  it('puts each file under its folders, with each folder’s count and size, in the batch’s order', () => {
    const tree = fileTree([
      { name: 'album/raw/one.cr2', size: 10 },
      { name: 'notes.txt', size: 1 },
      { name: 'album/cover.jpg', size: 5 },
      { name: 'album/raw/two.cr2', size: 20 },
    ]);
    expect(tree).toEqual([
      {
        kind: 'folder',
        name: 'album',
        fileCount: 3,
        size: 35,
        children: [
          {
            kind: 'folder',
            name: 'raw',
            fileCount: 2,
            size: 30,
            children: [
              { kind: 'file', name: 'one.cr2', file: { name: 'album/raw/one.cr2', size: 10 } },
              { kind: 'file', name: 'two.cr2', file: { name: 'album/raw/two.cr2', size: 20 } },
            ],
          },
          { kind: 'file', name: 'cover.jpg', file: { name: 'album/cover.jpg', size: 5 } },
        ],
      },
      { kind: 'file', name: 'notes.txt', file: { name: 'notes.txt', size: 1 } },
    ]);
  });
});
