import { describe, expect, it } from 'vitest';
import { ReceivedFileList } from './received-file-list';

// The receiver's side of docs/protocol.md, "File list".
const part = (names: [string, number][], more: boolean) => ({
  type: 'ferry-list' as const,
  files: names.map(([name, size]) => ({ name, size })),
  more,
});

describe('the received file list', () => {
  it('is done at once when it was never asked for', () => {
    const list = new ReceivedFileList();
    list.expect(false);
    expect(list.done).toBe(true);
  });

  it('waits for its last part, then becomes the list the batch is held to', () => {
    const list = new ReceivedFileList();
    list.expect(true);
    expect(list.take(part([['a/../a.txt', 1]], true), 2)).toBeUndefined();
    expect(list.done).toBe(false);
    expect(list.take(part([['b.txt', 2]], false), 2)).toBeUndefined();
    expect(list.settle(3)).toBeUndefined();
    expect(list.entries).toEqual([
      { path: 'a/__/a.txt', size: 1 },
      { path: 'b.txt', size: 2 },
    ]);
    expect(list.unlike(1, 'b.txt', 2)).toBeUndefined();
    expect(list.unlike(1, 'c.txt', 2)).toBe(
      'file 2 is announced as "c.txt" (2 B), but the list the transfer was accepted on names "b.txt" (2 B)',
    );
  });

  it('refuses more files than the batch announced', () => {
    const list = new ReceivedFileList();
    list.expect(true);
    expect(
      list.take(
        part(
          [
            ['a', 1],
            ['b', 1],
          ],
          false,
        ),
        1,
      ),
    ).toBe('the file list names more files than the 1 announced');
  });

  it('refuses a list that adds up to more than the batch', () => {
    const list = new ReceivedFileList();
    list.expect(true);
    list.take(part([['a', 5]], false), 1);
    expect(list.settle(4)).toBe(
      'the file list adds up to 5 B, more than the 4 B of the whole batch',
    );
    expect(list.entries).toEqual([]);
  });

  it('holds no file to a list that was cut short by the deadline', () => {
    const list = new ReceivedFileList();
    list.expect(true);
    list.close();
    expect(list.done).toBe(true);
    expect(list.settle(0)).toBeUndefined();
    expect(list.unlike(0, 'anything', 9)).toBeUndefined();
  });
});
