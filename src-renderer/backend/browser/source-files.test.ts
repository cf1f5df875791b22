import { describe, expect, it } from 'vitest';
import { folderItem, foldersFromRelativePaths, singleFileItem } from './source-files';

function fileAt(path: string, bytes: number, lastModified = 1_700_000_000_000): File {
  const file = new File([new Uint8Array(bytes)], path.slice(path.lastIndexOf('/') + 1), {
    lastModified,
  });
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

describe('what the browser sender offers', () => {
  it('sends a chosen file under its own name', () => {
    const { item, files } = singleFileItem(new File(['hello'], 'notes.txt'));
    expect(item).toMatchObject({ name: 'notes.txt', size: 5, isDirectory: false, fileCount: 1 });
    expect(files.map((source) => source.path)).toEqual(['notes.txt']);
  });

  it('gives the same file picked twice the same id, so it is listed once', () => {
    const first = singleFileItem(new File(['a'], 'a.txt', { lastModified: 5 }));
    const again = singleFileItem(new File(['a'], 'a.txt', { lastModified: 5 }));
    const other = singleFileItem(new File(['ab'], 'a.txt', { lastModified: 5 }));
    expect(again.item.id).toBe(first.item.id);
    expect(other.item.id).not.toBe(first.item.id);
  });

  it('keeps a picked folder’s relative paths, one item per folder, in a stable order', () => {
    const items = foldersFromRelativePaths([
      fileAt('photos/2024/b.jpg', 3),
      fileAt('photos/a.jpg', 2),
      fileAt('docs/readme.md', 1),
    ]);
    expect(
      items.map(({ item }) => [item.name, item.fileCount, item.size, item.isDirectory]),
    ).toEqual([
      ['photos', 2, 5, true],
      ['docs', 1, 1, true],
    ]);
    expect(items[0].files.map((source) => source.path)).toEqual([
      'photos/2024/b.jpg',
      'photos/a.jpg',
    ]);
  });

  it('offers no item for a folder with no files in it', () => {
    expect(folderItem('empty', [])).toBeUndefined();
  });
});
