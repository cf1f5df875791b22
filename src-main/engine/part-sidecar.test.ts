import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartSidecar } from './part-sidecar';
import { scratchFolder } from './test-support/files-on-disk';

let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
});

afterAll(async () => {
  await scratch.remove();
});

const IDENTITY = { name: 'big.bin', size: 10, senderFileId: 'id-1' };

describe('a sidecar on disk', () => {
  it('is never added to through a link that took its place', async () => {
    const folder = join(scratch.path, 'swapped');
    const elsewhere = join(scratch.path, 'swapped-elsewhere');
    await mkdir(folder, { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, 'victim'), 'untouched');
    const path = join(folder, 'big.bin.part.ferry');
    const sidecar = await PartSidecar.write(path, IDENTITY);
    await rename(path, join(folder, 'moved-away'));
    await symlink(join(elsewhere, 'victim'), path);

    sidecar.record(0, new Uint8Array(32), Promise.resolve());
    await sidecar.settled();

    expect(await readFile(join(elsewhere, 'victim'), 'utf8')).toBe('untouched');
  });

  it('is never written whole through a link at its name', async () => {
    const folder = join(scratch.path, 'planted');
    const elsewhere = join(scratch.path, 'planted-elsewhere');
    await mkdir(folder, { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await symlink(join(elsewhere, 'victim'), join(folder, 'big.bin.part.ferry'));

    await expect(PartSidecar.write(join(folder, 'big.bin.part.ferry'), IDENTITY)).rejects.toThrow();
    expect(await readdir(elsewhere)).toEqual([]);
  });
});
