import {
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PART_KEEP_MS, VERIFY_BLOCK_BYTES } from '../../src-shared/protocol';
import { sha256 } from '../../src-shared/verify/hash-functions';
import { findKeptFile, sweepKeptParts } from '../../src-shared/verify/kept-files';
import { RECEIPTS_MAX_BYTES } from '../../src-shared/protocol/limits';
import { findReceived, RECEIPTS_NAME, recordReceipt } from '../../src-shared/verify/receipts';
import { diskKeptFiles } from './kept-parts';
import { PartFile } from './part-file';
import { scratchFolder } from './test-support/files-on-disk';

let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
});

afterAll(async () => {
  await scratch.remove();
});

/** The destination's top folder, where big.bin is received. */
const inFolder = (target: string) => diskKeptFiles(target, 'big.bin', target);

const IDENTITY = { name: 'big.bin', size: 2 * VERIFY_BLOCK_BYTES + 10, senderFileId: 'id-1' };

/** A kept part of two full blocks, as a transfer that was cut would leave it. */
async function keptPart(target: string): Promise<Uint8Array[]> {
  const part = await PartFile.create(target, IDENTITY.name, IDENTITY);
  const blocks = [
    new Uint8Array(VERIFY_BLOCK_BYTES).fill(1),
    new Uint8Array(VERIFY_BLOCK_BYTES).fill(2),
  ];
  const digests: Uint8Array[] = [];
  for (const [index, block] of blocks.entries()) {
    await part.write(block);
    const digest = await sha256(block);
    digests.push(digest);
    part.recordBlock(index, digest);
  }
  await part.discard(true);
  return digests;
}

describe('what an earlier try kept', () => {
  it('is offered block by block, when the sidecar names the same file', async () => {
    const target = join(scratch.path, 'kept');
    const digests = await keptPart(target);

    const kept = await findKeptFile(inFolder(target), 'big.bin', IDENTITY);

    expect(kept?.kind).toBe('part');
    expect(kept?.point).toEqual({ offset: 2 * VERIFY_BLOCK_BYTES, blocks: digests });
    if (kept?.kind === 'part') await kept.part.discard(true);
  });

  it('is not offered to another sender file, nor for another size', async () => {
    const target = join(scratch.path, 'other');
    await keptPart(target);

    expect(
      await findKeptFile(inFolder(target), 'big.bin', { ...IDENTITY, senderFileId: 'id-2' }),
    ).toBeUndefined();
    expect(
      await findKeptFile(inFolder(target), 'big.bin', { ...IDENTITY, size: IDENTITY.size + 1 }),
    ).toBeUndefined();
  });

  it('is never read through a link that leads outside the destination', async () => {
    const outside = join(scratch.path, 'outside');
    await keptPart(outside);
    const target = join(scratch.path, 'linked');
    await mkdir(target, { recursive: true });
    await symlink(join(outside, 'big.bin.part'), join(target, 'big.bin.part'));
    await symlink(join(outside, 'big.bin.part.ferry'), join(target, 'big.bin.part.ferry'));

    expect(await findKeptFile(inFolder(target), 'big.bin', IDENTITY)).toBeUndefined();
  });

  it('is not reopened when another file took its name after it was checked, nor that file touched', async () => {
    const target = join(scratch.path, 'swapped-after-check');
    await keptPart(target);
    const planted = new Uint8Array(IDENTITY.size).fill(7);
    const real = inFolder(target);
    const swapping: typeof real = {
      ...real,
      async reopen(partName, kept) {
        // Between the hashing of the kept blocks and the reopen, a same-size file takes the name.
        await writeFile(join(target, 'planted'), planted);
        await rename(join(target, 'planted'), join(target, partName));
        return real.reopen(partName, kept);
      },
    };

    expect(await findKeptFile(swapping, 'big.bin', IDENTITY)).toBeUndefined();
    // Compared as a buffer: a deep equality over 8 MiB, element by element, takes most of a minute.
    expect(Buffer.compare(await readFile(join(target, 'big.bin.part')), planted)).toBe(0);
  });

  it('is removed with its sidecar once untouched for 7 days; newer ones stay', async () => {
    const target = join(scratch.path, 'old');
    await keptPart(target);
    await writeFile(join(target, 'new.bin.part'), 'x');
    await writeFile(join(target, 'new.bin.part.ferry'), '{}');
    const now = Date.now();
    const old = new Date(now - PART_KEEP_MS - 1000);
    await utimes(join(target, 'big.bin.part.ferry'), old, old);

    await sweepKeptParts(inFolder(target), now);

    expect((await readdir(target)).sort()).toEqual(['new.bin.part', 'new.bin.part.ferry']);
  });

  it("is only what a sidecar of Ferry's stands beside: no other old X.part.ferry has X.part removed", async () => {
    const target = join(scratch.path, 'not-a-sidecar');
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'thesis.part'), "a person's own file");
    await writeFile(join(target, 'thesis.part.ferry'), '{"ferry":"part-sidecar"}\n');
    const now = Date.now();
    const old = new Date(now - PART_KEEP_MS - 1000);
    await utimes(join(target, 'thesis.part.ferry'), old, old);

    await sweepKeptParts(inFolder(target), now);

    expect((await readdir(target)).sort()).toEqual(['thesis.part', 'thesis.part.ferry']);
  });
});

describe("a folder's index of received files", () => {
  const SMALL = { name: 'small.bin', size: 5, senderFileId: 'id-small' };

  it('survives a line a crash cut short: the next receipt still reads', async () => {
    const target = join(scratch.path, 'torn-index');
    await mkdir(target, { recursive: true });
    await writeFile(join(target, RECEIPTS_NAME), '\n{"ferry":"receipt","v":1,"name":"sm');
    await writeFile(join(target, 'small.bin'), 'small');

    await recordReceipt(diskKeptFiles(target, 'small.bin', target), 'small.bin', SMALL);

    const found = await findReceived(diskKeptFiles(target, 'small.bin', target), SMALL);
    expect(found?.name).toBe('small.bin');
    await found?.file.close();
  });

  it('is halved, atomically, before it grows past its limit, keeping the newest receipts', async () => {
    const target = join(scratch.path, 'full-index');
    await mkdir(target, { recursive: true });
    const old = (n: number) =>
      `\n${JSON.stringify({ ferry: 'receipt', v: 1, name: `old-${n}.bin`, path: `old-${n}.bin`, size: 1, modified: 0, id: `old-${n}` })}`;
    const lines: string[] = [];
    for (let n = 0, bytes = 0; bytes < RECEIPTS_MAX_BYTES - 50; n += 1) {
      lines.push(old(n));
      bytes += old(n).length;
    }
    await writeFile(join(target, RECEIPTS_NAME), lines.join(''));
    await writeFile(join(target, 'small.bin'), 'small');

    await recordReceipt(diskKeptFiles(target, 'small.bin', target), 'small.bin', SMALL);

    expect((await stat(join(target, RECEIPTS_NAME))).size).toBeLessThanOrEqual(
      RECEIPTS_MAX_BYTES / 2,
    );
    const index = await readFile(join(target, RECEIPTS_NAME), 'utf8');
    expect(index).toContain(old(lines.length - 1));
    expect(index).not.toContain(old(0));
    expect((await readdir(target)).sort()).toEqual([RECEIPTS_NAME, 'small.bin']);
    const found = await findReceived(diskKeptFiles(target, 'small.bin', target), SMALL);
    expect(found?.name).toBe('small.bin');
    await found?.file.close();
  });
});
