import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSendFiles } from './send-list';
import { scratchFolder, writeTextFile } from './test-support/files-on-disk';

let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
});

afterAll(async () => {
  await scratch.remove();
});

describe('what a send offers', () => {
  it('names a folder’s files under the folder’s own name, in sorted order, files given alone by their name', async () => {
    await writeTextFile(join(scratch.path, 'trip', 'b.jpg'), 'b');
    await writeTextFile(join(scratch.path, 'trip', 'a', 'z.jpg'), 'z');
    await mkdir(join(scratch.path, 'trip', 'empty'), { recursive: true });
    await writeTextFile(join(scratch.path, 'single.txt'), 'one');

    const files = await listSendFiles([
      join(scratch.path, 'trip'),
      join(scratch.path, 'single.txt'),
    ]);

    expect(files.map((file) => [file.name, file.size])).toEqual([
      ['trip/a/z.jpg', 1],
      ['trip/b.jpg', 1],
      ['single.txt', 3],
    ]);
  });

  it('refuses a path that does not exist, and a batch with no file in it', async () => {
    await mkdir(join(scratch.path, 'hollow', 'inside'), { recursive: true });

    await expect(listSendFiles([join(scratch.path, 'missing.txt')])).rejects.toMatchObject({
      code: 'ERR_SOURCE_UNREADABLE',
      message: expect.stringContaining('does not exist'),
    });
    await expect(listSendFiles([join(scratch.path, 'hollow')])).rejects.toMatchObject({
      code: 'ERR_SOURCE_UNREADABLE',
    });
  });
});
