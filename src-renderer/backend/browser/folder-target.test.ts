import { describe, expect, it } from 'vitest';
import { PART_KEEP_MS, VERIFY_BLOCK_BYTES } from '../../../src-shared/protocol/limits';
import { toHex } from '../../../src-shared/verify/file-digest';
import { sha256 } from '../../../src-shared/verify/hash-functions';
import { readSidecar, sidecarText } from '../../../src-shared/verify/part-sidecar';
import { RECEIPTS_NAME } from '../../../src-shared/verify/receipts';
import { MemoryFolder } from '../../testing/memory-folder';
import { folderTarget } from './folder-target';

const BLOCK = VERIFY_BLOCK_BYTES;
const SIZE = 3 * BLOCK + 1000;
const ID = 'c2VuZGVyLWZpbGUtaWQ';

/** Distinct bytes in every block, so a shifted or swapped block cannot go unnoticed. */
function content(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed * 7 + Math.floor(i / BLOCK)) & 0xff;
  return bytes;
}

/** Compared by digest: a deep comparison of megabytes, element by element, takes minutes. */
async function digestOf(bytes: Uint8Array | undefined): Promise<string> {
  return bytes === undefined ? 'no such file' : toHex(await sha256(bytes));
}

async function blockDigests(bytes: Uint8Array, count: number): Promise<Uint8Array[]> {
  const digests: Uint8Array[] = [];
  for (let block = 0; block < count; block += 1) {
    digests.push(
      await sha256(bytes.subarray(block * BLOCK, Math.min((block + 1) * BLOCK, bytes.length))),
    );
  }
  return digests;
}

/** A first try that wrote `upTo` bytes of `bytes`, recorded its full blocks and was cut short. */
async function cutShort(folder: MemoryFolder, bytes: Uint8Array, upTo: number): Promise<void> {
  const target = folderTarget(folder);
  expect(await target.resume!(0, 'big.bin', bytes.length, ID)).toEqual({ offset: 0, blocks: [] });
  await target.write(0, bytes.slice(0, upTo));
  const full = Math.floor(upTo / BLOCK);
  for (const [block, digest] of (await blockDigests(bytes, full)).entries()) {
    target.recordBlock!(0, block, digest);
  }
  await target.discard(0, true);
}

const identity = { name: 'big.bin', size: SIZE, senderFileId: ID };

/** `bytes` received whole as big.bin from sender file `id`, as a first try would. */
async function receiveWhole(folder: MemoryFolder, bytes: Uint8Array, id: string): Promise<void> {
  const target = folderTarget(folder);
  expect(await target.resume!(0, 'big.bin', bytes.length, id)).toEqual({ offset: 0, blocks: [] });
  await target.write(0, bytes);
  expect(await target.commit(0)).toEqual({ name: 'big.bin' });
}

describe('a chosen folder, staging each file as a .part', () => {
  it('moves the .part to its final name, recreating subfolders, and leaves nothing else', async () => {
    const folder = new MemoryFolder('Received');
    const target = folderTarget(folder);
    await target.open(0, 'album/raw/a.cr2', 5);
    await target.write(0, new Uint8Array([1, 2, 3]));
    await target.write(0, new Uint8Array([4, 5]));
    expect(folder.list()).toEqual(['album/raw/a.cr2.part']);

    expect(await target.commit(0)).toEqual({ name: 'album/raw/a.cr2' });
    expect(folder.list()).toEqual(['album/raw/a.cr2']);
    const raw = await (await folder.getDirectoryHandle('album')).getDirectoryHandle('raw');
    expect(raw.bytes('a.cr2')).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  });

  it('never overwrites: a taken name becomes name (1).ext, and the file there is untouched', async () => {
    const folder = new MemoryFolder('Received');
    folder.put('notes.txt', 'mine');
    const target = folderTarget(folder);
    await target.open(0, 'notes.txt', 6);
    await target.write(0, new TextEncoder().encode('theirs'));

    expect(await target.commit(0)).toEqual({ name: 'notes (1).txt' });
    expect(folder.text('notes.txt')).toBe('mine');
    expect(folder.text('notes (1).txt')).toBe('theirs');
  });

  it('copies the .part into place where the browser cannot move a file', async () => {
    const folder = new MemoryFolder('Received', Date.now, false);
    folder.put('a.bin', 'mine');
    const target = folderTarget(folder);
    await target.open(0, 'a.bin', 6);
    await target.write(0, new TextEncoder().encode('theirs'));

    expect(await target.commit(0)).toEqual({ name: 'a (1).bin' });
    expect(folder.list()).toEqual(['a (1).bin', 'a.bin']);
    expect(folder.text('a (1).bin')).toBe('theirs');
  });

  it('refuses a file whose size does not match, leaving nothing behind', async () => {
    const folder = new MemoryFolder('Received');
    const target = folderTarget(folder);
    await target.open(0, 'short.bin', 10);
    await target.write(0, new Uint8Array(4));

    await expect(target.commit(0)).rejects.toThrow('4 bytes reached the disk where 10');
    expect(folder.list()).toEqual([]);
  });

  it('a discard removes the .part, even with keep when the file is not resumable', async () => {
    const folder = new MemoryFolder('Received');
    const target = folderTarget(folder);
    await target.open(0, 'a.bin', 3);
    await target.write(0, new Uint8Array(3));
    await target.discard(0, true);
    expect(folder.list()).toEqual([]);
  });
});

describe('resuming in a chosen folder (docs/protocol.md, "Resume")', () => {
  it('keeps what arrived as a .part with a sidecar in the native format, listing its full blocks', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    await cutShort(folder, bytes, 2 * BLOCK + 500);

    expect(folder.list()).toEqual(['big.bin.part', 'big.bin.part.ferry']);
    expect(await digestOf(folder.bytes('big.bin.part'))).toBe(
      await digestOf(bytes.slice(0, 2 * BLOCK + 500)),
    );
    expect(folder.text('big.bin.part.ferry')).toBe(
      sidecarText(identity, await blockDigests(bytes, 2)),
    );
  });

  it('offers the checked blocks, cuts off the rest, and finishes into the final name', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    await cutShort(folder, bytes, 2 * BLOCK + 500);

    const target = folderTarget(folder);
    const point = await target.resume!(0, 'big.bin', SIZE, ID);
    expect(point).toEqual({ offset: 2 * BLOCK, blocks: await blockDigests(bytes, 2) });
    await target.write(0, bytes.slice(2 * BLOCK));

    expect(await target.commit(0)).toEqual({ name: 'big.bin' });
    expect(folder.list()).toEqual([RECEIPTS_NAME, 'big.bin']);
    expect(await digestOf(folder.bytes('big.bin'))).toBe(await digestOf(bytes));
  });

  it('a flipped byte in the kept .part ends the offer at the block before it', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    await cutShort(folder, bytes, 3 * BLOCK);
    folder.bytes('big.bin.part')![BLOCK + 100] ^= 0xff;

    const target = folderTarget(folder);
    expect((await target.resume!(0, 'big.bin', SIZE, ID)).offset).toBe(BLOCK);
    await target.write(0, bytes.slice(BLOCK));
    await target.commit(0);
    expect(await digestOf(folder.bytes('big.bin'))).toBe(await digestOf(bytes));
  });

  it('a .part kept for another file is left alone, and this one starts beside it', async () => {
    const folder = new MemoryFolder('Received');
    await cutShort(folder, content(SIZE), 2 * BLOCK);
    const before = folder.bytes('big.bin.part');

    const target = folderTarget(folder);
    expect(await target.resume!(0, 'big.bin', SIZE, 'another-id')).toEqual({
      offset: 0,
      blocks: [],
    });
    expect(folder.list()).toEqual([
      'big (1).bin.part',
      'big (1).bin.part.ferry',
      'big.bin.part',
      'big.bin.part.ferry',
    ]);
    await target.discard(0, false);
    expect(folder.bytes('big.bin.part')).toBe(before);
  });

  it('a restart empties the .part and its sidecar', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    await cutShort(folder, bytes, 2 * BLOCK);

    const target = folderTarget(folder);
    expect((await target.resume!(0, 'big.bin', SIZE, ID)).offset).toBe(2 * BLOCK);
    await target.restart!(0);
    expect(readSidecar(folder.text('big.bin.part.ferry')!, identity)).toEqual([]);
    await target.write(0, bytes);
    await target.commit(0);
    expect(folder.list()).toEqual([RECEIPTS_NAME, 'big.bin']);
    expect(await digestOf(folder.bytes('big.bin'))).toBe(await digestOf(bytes));
  });

  it('a file this folder received from the same sender file is offered whole and never touched', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    await receiveWhole(folder, bytes, ID);
    const landed = folder.bytes('big.bin');

    const target = folderTarget(folder);
    const point = await target.resume!(0, 'big.bin', SIZE, ID);
    expect(point).toEqual({ offset: SIZE, blocks: await blockDigests(bytes, 4) });
    expect(await target.commit(0)).toEqual({ name: 'big.bin' });
    expect(folder.list()).toEqual([RECEIPTS_NAME, 'big.bin']);
    expect(folder.bytes('big.bin')).toBe(landed);
  });

  it('a same-name, same-size file put there by hand is never offered, and the new copy lands beside it', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    // The very bytes the sender has: offering them would tell the sender this folder holds them.
    folder.put('big.bin', bytes);

    const target = folderTarget(folder);
    expect(await target.resume!(0, 'big.bin', SIZE, ID)).toEqual({ offset: 0, blocks: [] });
    await target.write(0, bytes);
    expect(await target.commit(0)).toEqual({ name: 'big (1).bin' });
    expect(folder.bytes('big.bin')).toBe(bytes);
  });

  it('a file received from another sender file, or changed since, is never offered', async () => {
    const folder = new MemoryFolder('Received');
    const bytes = content(SIZE);
    await receiveWhole(folder, bytes, 'another-id');
    expect(await folderTarget(folder).resume!(0, 'big.bin', SIZE, ID)).toEqual({
      offset: 0,
      blocks: [],
    });

    const changed = new MemoryFolder('Received');
    await receiveWhole(changed, bytes, ID);
    changed.put('big.bin', bytes, changed.files.get('big.bin')!.lastModified + 1);
    expect(await folderTarget(changed).resume!(0, 'big.bin', SIZE, ID)).toEqual({
      offset: 0,
      blocks: [],
    });
  });

  it('a received file the sender refuses stays, and the new copy lands beside it', async () => {
    const folder = new MemoryFolder('Received');
    const mine = content(SIZE, 2);
    await receiveWhole(folder, mine, ID);
    const landed = folder.bytes('big.bin');
    const theirs = content(SIZE, 3);

    const target = folderTarget(folder);
    expect((await target.resume!(0, 'big.bin', SIZE, ID)).offset).toBe(SIZE);
    await target.restart!(0);
    await target.write(0, theirs);
    expect(await target.commit(0)).toEqual({ name: 'big (1).bin' });
    expect(folder.bytes('big.bin')).toBe(landed);
    expect(await digestOf(folder.bytes('big (1).bin'))).toBe(await digestOf(theirs));
  });

  it('sweeps kept parts whose sidecar is older than a week, and keeps newer ones', async () => {
    let now = Date.now() - PART_KEEP_MS - 1000;
    const folder = new MemoryFolder('Received', () => now);
    await cutShort(folder, content(SIZE), BLOCK);
    // Not a sidecar of Ferry's, however old: the file beside it is not Ferry's to delete.
    folder.put('notes.part', new Uint8Array(1));
    folder.put('notes.part.ferry', 'x');
    now = Date.now();
    folder.put('fresh.bin.part', new Uint8Array(1));
    folder.put('fresh.bin.part.ferry', sidecarText({ ...identity, name: 'fresh.bin' }));

    const target = folderTarget(folder);
    await target.resume!(0, 'other.bin', 10, ID);
    expect(folder.list()).toEqual([
      'fresh.bin.part',
      'fresh.bin.part.ferry',
      'notes.part',
      'notes.part.ferry',
      'other.bin.part',
      'other.bin.part.ferry',
    ]);
  });
});
