import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathsFromArgv } from './launch-paths';

describe('files passed at launch go to the send screen', () => {
  it('keeps existing paths, resolves relative ones, and drops switches and missing files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ferry-launch-'));
    await writeFile(join(dir, 'photo.jpg'), 'x');
    const argv = ['/opt/Ferry/ferry', '--no-sandbox', 'photo.jpg', dir, join(dir, 'missing.txt')];
    expect(pathsFromArgv(argv, dir, 1)).toEqual([join(dir, 'photo.jpg'), dir]);
  });

  it('skips the app path of an unpackaged launch (electron . file)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ferry-launch-'));
    await writeFile(join(dir, 'a.txt'), 'x');
    expect(pathsFromArgv(['electron', dir, join(dir, 'a.txt')], dir, 2)).toEqual([
      join(dir, 'a.txt'),
    ]);
  });
});
