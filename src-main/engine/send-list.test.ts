import { mkdir, symlink } from 'node:fs/promises';
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

  it('follows no link inside a folder, wherever it leads, and names each one skipped', async () => {
    const folder = join(scratch.path, 'linked');
    const outside = join(scratch.path, 'outside');
    await writeTextFile(join(folder, 'a.txt'), 'a');
    await writeTextFile(join(folder, 'sub', 'b.txt'), 'b');
    await writeTextFile(join(outside, 'secret.txt'), 'private');
    await writeTextFile(join(outside, 'keys', 'id_ed25519'), 'private key');
    await symlink(join(outside, 'secret.txt'), join(folder, 'secret-file'));
    await symlink(join(outside, 'keys'), join(folder, 'sub', 'secret-folder'));
    await symlink(join(folder, 'a.txt'), join(folder, 'inner-file'));
    await symlink(join(folder, 'sub'), join(folder, 'inner-folder'));
    await symlink(join(scratch.path, 'nothing-there'), join(folder, 'dangling'));
    const skipped: string[] = [];

    const files = await listSendFiles([folder], (name) => skipped.push(name));

    expect(files.map((file) => file.name)).toEqual(['linked/a.txt', 'linked/sub/b.txt']);
    expect(files.every((file) => !file.path.startsWith(outside))).toBe(true);
    expect(skipped).toEqual([
      'linked/dangling',
      'linked/inner-file',
      'linked/inner-folder',
      'linked/secret-file',
      'linked/sub/secret-folder',
    ]);
  });

  it('follows a link the person picked itself, to a folder or to a file', async () => {
    const real = join(scratch.path, 'real-trip');
    await writeTextFile(join(real, 'photo.jpg'), 'photo');
    await writeTextFile(join(scratch.path, 'real-note.txt'), 'note');
    await symlink(real, join(scratch.path, 'trip-link'));
    await symlink(join(scratch.path, 'real-note.txt'), join(scratch.path, 'note-link.txt'));

    const files = await listSendFiles([
      join(scratch.path, 'trip-link'),
      join(scratch.path, 'note-link.txt'),
    ]);

    expect(files.map((file) => [file.name, file.size])).toEqual([
      ['trip-link/photo.jpg', 5],
      ['note-link.txt', 4],
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
