import { describe, expect, it } from 'vitest';
import { entriesOf, itemsFromEntries, type DroppedEntry } from './dropped-items';

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

/** A DataTransferItem as a browser hands one over during the drop event. */
function dataItem(kind: string, entry: DroppedEntry | null, file: File | null): DataTransferItem {
  return {
    kind,
    type: file?.type ?? '',
    webkitGetAsEntry: () => entry,
    getAsFile: () => file,
    getAsString: () => undefined,
  } as unknown as DataTransferItem;
}

const dropOf = (items: DataTransferItem[]): DataTransfer => ({ items }) as unknown as DataTransfer;

describe('a drop of things that have no file-system entry', () => {
  it('keeps a virtual file (from a mail or photo app, an image from a page) as it is', async () => {
    const photo = new File(['jpeg bytes'], 'IMG_0001.jpg', { type: 'image/jpeg' });
    const folder = directory('/album', [file('/album/one.jpg', '1')]);
    const dropped = entriesOf(
      dropOf([
        dataItem('file', null, photo),
        dataItem('file', folder, null),
        // The page's own text that travels with a dragged image is no file.
        dataItem('string', null, null),
      ]),
    );
    const items = await itemsFromEntries(dropped);
    expect(
      items.map(({ item }) => [item.name, item.isDirectory, item.fileCount, item.size]),
    ).toEqual([
      ['IMG_0001.jpg', false, 1, 10],
      ['album', true, 1, 1],
    ]);
    expect(items[0].files[0].file).toBe(photo);
    expect(items[1].files.map((source) => source.path)).toEqual(['album/one.jpg']);
  });

  it('drops nothing for an item that is neither an entry nor a file', () => {
    expect(entriesOf(dropOf([dataItem('file', null, null)]))).toEqual([]);
  });
});
