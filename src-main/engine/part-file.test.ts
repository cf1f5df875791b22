import { lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartFile } from './part-file';
import { openDirect } from './received-file-open';
import { filesUnder, scratchFolder } from './test-support/files-on-disk';

let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
});

afterAll(async () => {
  await scratch.remove();
});

const bytes = (text: string) => new TextEncoder().encode(text);

describe('a received file on disk', () => {
  it('is staged as <name>.part and appears under its name only when committed', async () => {
    const target = join(scratch.path, 'staged');
    const part = await PartFile.create(target, 'folder/photo.jpg');
    const written = Promise.all([part.write(bytes('abc')), part.write(bytes('def'))]);

    expect(await filesUnder(target)).toEqual(['folder/photo.jpg.part']);
    const saved = await part.commit(6);
    await written;

    expect(saved).toBe('photo.jpg');
    expect(await filesUnder(target)).toEqual(['folder/photo.jpg']);
    expect(await readFile(join(target, 'folder', saved), 'utf8')).toBe('abcdef');
  });

  it('never overwrites: a taken name becomes name (1).ext, then (2)', async () => {
    const target = join(scratch.path, 'taken');
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'report.pdf'), 'original');
    await writeFile(join(target, 'report (1).pdf'), 'first copy');

    const part = await PartFile.create(target, 'report.pdf');
    void part.write(bytes('newest'));
    const saved = await part.commit(6);

    expect(saved).toBe('report (2).pdf');
    expect(await readFile(join(target, 'report.pdf'), 'utf8')).toBe('original');
  });

  it('is deleted, .part and all, when its count does not match what was announced', async () => {
    const target = join(scratch.path, 'miscounted');
    const part = await PartFile.create(target, 'short.bin');
    void part.write(bytes('1234'));

    await expect(part.commit(5)).rejects.toThrow(/4 bytes reached the disk where 5 were expected/);
    expect(await filesUnder(target)).toEqual([]);
  });

  it('leaves nothing behind when discarded mid-way', async () => {
    const target = join(scratch.path, 'discarded');
    const part = await PartFile.create(target, 'cut.bin');
    void part.write(bytes('partial'));
    await part.discard();

    expect(await filesUnder(target)).toEqual([]);
  });

  it('refuses a folder that leads outside the destination through a link', async () => {
    const target = join(scratch.path, 'linked');
    const elsewhere = join(scratch.path, 'elsewhere');
    await mkdir(target, { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await symlink(elsewhere, join(target, 'door'));

    await expect(PartFile.create(target, 'door/deeper/planted.txt')).rejects.toThrow(
      'door in the destination folder is a symbolic link, and Ferry does not save through links',
    );
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('refuses a folder that is a link even when it leads back inside the destination', async () => {
    const target = join(scratch.path, 'looped');
    await mkdir(join(target, 'real'), { recursive: true });
    await symlink(join(target, 'real'), join(target, 'alias'));

    await expect(PartFile.create(target, 'alias/photo.jpg')).rejects.toThrow(/alias .* link/);
    expect(await readdir(join(target, 'real'))).toEqual([]);
  });

  it('refuses a folder level that is already a file', async () => {
    const target = join(scratch.path, 'file-in-the-way');
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'album'), 'a file, not a folder');

    await expect(PartFile.create(target, 'album/photo.jpg')).rejects.toThrow(
      'album in the destination folder is already there and is not a folder',
    );
    expect(await readFile(join(target, 'album'), 'utf8')).toBe('a file, not a folder');
  });

  it('never writes a sidecar through a link at its name, and leaves no .part behind', async () => {
    const target = join(scratch.path, 'sidecar-link');
    const elsewhere = join(scratch.path, 'sidecar-elsewhere');
    await mkdir(target, { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await symlink(join(elsewhere, 'planted'), join(target, 'big.bin.part.ferry'));
    const identity = { name: 'big.bin', size: 10, senderFileId: 'id-1' };

    await expect(PartFile.create(target, 'big.bin', identity)).rejects.toThrow(
      'big.bin.part.ferry in the destination folder is a symbolic link',
    );
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(target)).toEqual(['big.bin.part.ferry']);
  });

  it.skipIf(process.platform !== 'linux')(
    'never opens its direct I/O handle through a link',
    async () => {
      const target = join(scratch.path, 'direct-link');
      await mkdir(target, { recursive: true });
      await writeFile(join(target, 'real.bin'), 'untouched');
      await symlink(join(target, 'real.bin'), join(target, 'swapped.part'));

      expect(await openDirect(join(target, 'swapped.part'))).toBeUndefined();
      const direct = await openDirect(join(target, 'real.bin'));
      await direct?.close();
      // Direct I/O exists here (Linux, not tmpfs), so the refusal above was the link's.
      expect(direct).toBeDefined();
    },
  );
});

describe('a .part swapped under the receiver between open and commit', () => {
  it('is never published when another file took its name, nor that file deleted', async () => {
    const target = join(scratch.path, 'swapped-file');
    const part = await PartFile.create(target, 'photo.jpg');
    // Handed over, not awaited: a write settles once the batch it is in reaches the disk.
    void part.write(bytes('genuine')).catch(() => undefined);
    // Same size as what was announced, so only the file's identity can tell them apart.
    await writeFile(join(target, 'planted'), 'planted');
    await rename(join(target, 'planted'), join(target, 'photo.jpg.part'));

    await expect(part.commit(7)).rejects.toThrow(/was replaced by something else/);
    await part.discard();

    expect(await readdir(target)).toEqual(['photo.jpg.part']);
    expect(await readFile(join(target, 'photo.jpg.part'), 'utf8')).toBe('planted');
  });

  it('is never published when a link took its name', async () => {
    const target = join(scratch.path, 'swapped-link');
    const outside = join(scratch.path, 'swapped-link-outside.txt');
    await writeFile(outside, 'secret!');
    const part = await PartFile.create(target, 'photo.jpg');
    // Handed over, not awaited: a write settles once the batch it is in reaches the disk.
    void part.write(bytes('genuine')).catch(() => undefined);
    await rename(join(target, 'photo.jpg.part'), join(scratch.path, 'swapped-link-aside'));
    await symlink(outside, join(target, 'photo.jpg.part'));

    await expect(part.commit(7)).rejects.toThrow(/was replaced by something else/);
    await part.discard();

    expect(await readdir(target)).toEqual(['photo.jpg.part']);
    expect((await lstat(join(target, 'photo.jpg.part'))).isSymbolicLink()).toBe(true);
    expect(await readFile(outside, 'utf8')).toBe('secret!');
  });
});
