import { appendFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendFile } from './send-list';
import { SourceReader } from './source-reader';
import { scratchFolder } from './test-support/files-on-disk';

let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
});

afterAll(async () => {
  await scratch.remove();
});

async function listed(path: string): Promise<SendFile> {
  const info = await stat(path);
  return { path, name: 'file', size: info.size, mtimeMs: info.mtimeMs };
}

async function readAll(reader: SourceReader): Promise<string> {
  let text = '';
  while (!reader.done) {
    const next = await reader.next();
    if (next.kind !== 'bytes') throw new Error(next.detail);
    text += Buffer.from(next.bytes).toString('utf8');
  }
  return text;
}

describe('reading a file to send', () => {
  it('never reads past the size it was listed with, so a growing file cannot overrun', async () => {
    const path = join(scratch.path, 'growing.log');
    await writeFile(path, '0123456789');
    const file = await listed(path);
    const reader = await SourceReader.open(file, 4, 0);
    if (!(reader instanceof SourceReader)) throw new Error(reader.detail);
    await appendFile(path, 'appended while sending');

    expect(await readAll(reader)).toBe('0123456789');
    expect(await reader.change()).toMatch(/size went from 10 to 32 bytes/);
    await reader.close();
  });

  it('notices a file rewritten in place, same size, by its modification time', async () => {
    const path = join(scratch.path, 'rewritten.txt');
    await writeFile(path, 'before');
    const file = await listed(path);
    const reader = await SourceReader.open(file, 64, 0);
    if (!(reader instanceof SourceReader)) throw new Error(reader.detail);
    await writeFile(path, 'after!');
    const later = new Date(file.mtimeMs + 5000);
    await utimes(path, later, later);

    expect(await reader.change()).toBe('it was modified');
    await reader.close();
  });

  it('reports a file that became shorter as changed instead of sending less', async () => {
    const path = join(scratch.path, 'shrinking.bin');
    await writeFile(path, 'twelve bytes');
    const file = await listed(path);
    const reader = await SourceReader.open(file, 8, 0);
    if (!(reader instanceof SourceReader)) throw new Error(reader.detail);
    await writeFile(path, 'short');

    const first = await reader.next();
    const second = await reader.next();

    expect(first.kind).toBe('bytes');
    expect(second).toEqual({ kind: 'changed', detail: 'it became shorter' });
    await reader.close();
  });
});
