import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { RECEIPTS_NAME } from '../../../src-shared/verify/receipts';

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Every file under `folder`, as sorted `/`-separated relative paths, but for the index of received
 * files Ferry keeps in each folder it saves to (receipts.ts), which tests of receipts read
 * themselves.
 */
export async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name !== RECEIPTS_NAME)
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

export async function writeTextFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** `bytes` of cryptographically random data, written a mebibyte at a time. */
export async function writeRandomFile(path: string, bytes: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'w');
  try {
    const block = 1024 * 1024;
    for (let written = 0; written < bytes; written += block) {
      await handle.write(randomBytes(Math.min(block, bytes - written)));
    }
  } finally {
    await handle.close();
  }
}

/** A fresh temporary folder and its removal. */
export async function scratchFolder(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'ferry-engine-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
