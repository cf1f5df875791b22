import { describe, expect, it } from 'vitest';
import { itemsFromEntries, type DroppedEntry } from './dropped-items';

function file(fullPath: string, text: string): DroppedEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return Object.assign(
    { isFile: true, isDirectory: false, name, fullPath },
    { file: (success: (file: File) => void) => success(new File([text], name)) },
  );
}

/** A directory whose reader answers in batches of two, as browsers batch large folders. */
function directory(fullPath: string, children: DroppedEntry[]): DroppedEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return Object.assign(
    { isFile: false, isDirectory: true, name, fullPath },
    {
      createReader: () => {
        let at = 0;
        return {
          readEntries: (success: (entries: DroppedEntry[]) => void) => {
            success(children.slice(at, at + 2));
            at += 2;
          },
        };
      },
    },
  );
}

describe('a drop of files and folders', () => {
  it('keeps each folder’s relative paths, reading every batch of a large folder', async () => {
    const drop = [
      file('/notes.txt', 'hi'),
      directory('/album', [
        file('/album/one.jpg', '1'),
        file('/album/two.jpg', '22'),
        directory('/album/raw', [file('/album/raw/three.cr2', '333')]),
        file('/album/four.jpg', '4444'),
      ]),
      directory('/empty', []),
    ];
    const items = await itemsFromEntries(drop);
    expect(
      items.map(({ item }) => [item.name, item.isDirectory, item.fileCount, item.size]),
    ).toEqual([
      ['notes.txt', false, 1, 2],
      ['album', true, 4, 10],
    ]);
    expect(items[1].files.map((source) => source.path)).toEqual([
      'album/four.jpg',
      'album/one.jpg',
      'album/raw/three.cr2',
      'album/two.jpg',
    ]);
  });
});
