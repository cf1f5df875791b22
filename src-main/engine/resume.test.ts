import { copyFile, mkdir, open, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFY_BLOCK_BYTES } from '../../src-shared/protocol';
import { RECEIPTS_NAME } from '../../src-shared/verify/receipts';
import type { FinalState, Transfer } from '.';
import { useLoopbackRig } from './test-support/loopback-rig';
import { filesUnder, sha256File, writeRandomFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const rig = useLoopbackRig();
const BLOCKS = 6;
const SIZE = BLOCKS * VERIFY_BLOCK_BYTES + 12_345;

/** The receiver hangs up once `bytes` of the batch are on its disk, keeping what arrived. */
function hangUpAfter(bytes: number): (receiver: Transfer) => void {
  return (receiver) =>
    receiver.on('state', (state) => {
      if (state.phase === 'transferring' && state.progress.bytesDone >= bytes) receiver.cancel();
    });
}

function received(state: FinalState): number {
  if (state.phase !== 'done') throw new Error(`the transfer failed: ${state.message}`);
  return state.totalBytes;
}

async function cutShort(name: string): Promise<{ file: string; destination: string }> {
  const file = join(rig.scratch.path, name, 'source', 'big.bin');
  await writeRandomFile(file, SIZE);
  const destination = join(rig.scratch.path, name, 'received');
  const first = await transferPair(
    rig.server.url,
    { paths: [file], iceServers: [] },
    { destination, iceServers: [] },
    hangUpAfter(SIZE / 2),
  );
  expect(first.receiver).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
  expect(await filesUnder(destination)).toEqual(['big.bin.part', 'big.bin.part.ferry']);
  return { file, destination };
}

/** What the sender found already at the receiver, file by file. */
function resumedBytes(state: FinalState): number[] {
  if (state.phase !== 'done') throw new Error(`the transfer failed: ${state.message}`);
  return state.files.map((file) => file.resumedBytes ?? 0);
}

/** Sends `path` into `destination`, the receiver accepting at once. */
function sendInto(path: string, destination: string) {
  return transferPair(
    rig.server.url,
    { paths: [path], iceServers: [] },
    { destination, iceServers: [] },
  );
}

describe('resuming a file from what an earlier try kept', () => {
  it('a cut transfer keeps its .part, and sending again moves only the rest, verified', async () => {
    const { file, destination } = await cutShort('cut');

    const second = await sendInto(file, destination);

    expect(received(second.receiver)).toBeLessThan(SIZE * 0.6);
    expect(second.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(second.sender).toMatchObject({ phase: 'done', confirmed: true, verified: true });
    const [sent] = second.sender.phase === 'done' ? second.sender.files : [];
    expect(sent.resumedBytes).toBeGreaterThanOrEqual(VERIFY_BLOCK_BYTES);
    expect(sent.resumedBytes! % VERIFY_BLOCK_BYTES).toBe(0);
    expect(await filesUnder(destination)).toEqual(['big.bin']);
    expect(await sha256File(join(destination, 'big.bin'))).toBe(await sha256File(file));
  });

  it('a flipped byte in the kept .part costs only the blocks from there on', async () => {
    const { file, destination } = await cutShort('flipped');
    const part = await open(join(destination, 'big.bin.part'), 'r+');
    const at = VERIFY_BLOCK_BYTES + 100;
    const byte = Buffer.alloc(1);
    await part.read(byte, 0, 1, at);
    byte[0] ^= 0xff;
    await part.write(byte, 0, 1, at);
    await part.close();

    const second = await sendInto(file, destination);

    expect(received(second.receiver)).toBe(SIZE - VERIFY_BLOCK_BYTES);
    expect(second.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(await sha256File(join(destination, 'big.bin'))).toBe(await sha256File(file));
  });

  it('a kept .part whose sidecar names another file is not trusted: the file starts at 0 beside it', async () => {
    const { file, destination } = await cutShort('other');
    const sidecar = join(destination, 'big.bin.part.ferry');
    const [header, ...lines] = (await readFile(sidecar, 'utf8')).split('\n');
    const other = { ...(JSON.parse(header) as Record<string, unknown>), id: 'someone-else' };
    await writeFile(sidecar, [JSON.stringify(other), ...lines].join('\n'));

    const second = await sendInto(file, destination);

    expect(received(second.receiver)).toBe(SIZE);
    expect(await sha256File(join(destination, 'big.bin'))).toBe(await sha256File(file));
    expect(await filesUnder(destination)).toEqual([
      'big.bin',
      'big.bin.part',
      'big.bin.part.ferry',
    ]);
  });

  it('a corrupt sidecar is ignored and the file starts at 0', async () => {
    const { file, destination } = await cutShort('corrupt');
    await writeFile(join(destination, 'big.bin.part.ferry'), '{"ferry":"part-sidecar","v":1,');

    const second = await sendInto(file, destination);

    expect(received(second.receiver)).toBe(SIZE);
    expect(await sha256File(join(destination, 'big.bin'))).toBe(await sha256File(file));
  });

  it('a folder sent again skips the files Ferry received there whole from the same files', async () => {
    const folder = join(rig.scratch.path, 'again', 'album');
    await writeRandomFile(join(folder, 'a.bin'), 3 * 1024 * 1024);
    await writeRandomFile(join(folder, 'b.bin'), 2 * 1024 * 1024);
    const destination = join(rig.scratch.path, 'again', 'received');
    const first = await sendInto(folder, destination);
    expect(received(first.receiver)).toBe(5 * 1024 * 1024);

    const second = await sendInto(folder, destination);

    expect(received(second.receiver)).toBe(0);
    expect(resumedBytes(second.sender)).toEqual([3 * 1024 * 1024, 2 * 1024 * 1024]);
    expect(second.sender).toMatchObject({ phase: 'done', verified: true });
    expect(await filesUnder(join(destination, 'album'))).toEqual(['a.bin', 'b.bin']);
  });

  it('a same-name, same-size file Ferry did not put there is never read for the sender: no resume is offered, and the new copy lands beside it', async () => {
    const folder = join(rig.scratch.path, 'planted', 'album');
    await writeRandomFile(join(folder, 'a.bin'), 3 * 1024 * 1024);
    await writeRandomFile(join(folder, 'b.bin'), 2 * 1024 * 1024);
    const destination = join(rig.scratch.path, 'planted', 'received');
    // The very bytes the sender has, put there by hand: offering them would tell the sender so.
    await mkdir(join(destination, 'album'), { recursive: true });
    await copyFile(join(folder, 'a.bin'), join(destination, 'album', 'a.bin'));
    await writeRandomFile(join(destination, 'album', 'b.bin'), 2 * 1024 * 1024);
    const strangers = {
      a: await sha256File(join(destination, 'album', 'a.bin')),
      b: await sha256File(join(destination, 'album', 'b.bin')),
    };

    const outcome = await sendInto(folder, destination);

    expect(received(outcome.receiver)).toBe(5 * 1024 * 1024);
    expect(resumedBytes(outcome.sender)).toEqual([0, 0]);
    expect(await filesUnder(join(destination, 'album'))).toEqual([
      'a (1).bin',
      'a.bin',
      'b (1).bin',
      'b.bin',
    ]);
    expect(await sha256File(join(destination, 'album', 'a.bin'))).toBe(strangers.a);
    expect(await sha256File(join(destination, 'album', 'b.bin'))).toBe(strangers.b);
    expect(await sha256File(join(destination, 'album', 'b (1).bin'))).toBe(
      await sha256File(join(folder, 'b.bin')),
    );
  });

  it('a file Ferry received that changed since is not vouched for: the new copy lands beside it', async () => {
    const folder = join(rig.scratch.path, 'touched', 'album');
    await writeRandomFile(join(folder, 'a.bin'), 3 * 1024 * 1024);
    const destination = join(rig.scratch.path, 'touched', 'received');
    await sendInto(join(folder, 'a.bin'), destination);
    // Same bytes, same size; only its modification time says someone wrote to it since.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(destination, 'a.bin'), later, later);

    const outcome = await sendInto(join(folder, 'a.bin'), destination);

    expect(received(outcome.receiver)).toBe(3 * 1024 * 1024);
    expect(resumedBytes(outcome.sender)).toEqual([0]);
    expect(await filesUnder(destination)).toEqual(['a (1).bin', 'a.bin']);
  });

  it('a receipt in the index that names another sender file vouches for nothing', async () => {
    const folder = join(rig.scratch.path, 'forged', 'album');
    await writeRandomFile(join(folder, 'a.bin'), 3 * 1024 * 1024);
    const destination = join(rig.scratch.path, 'forged', 'received');
    await sendInto(join(folder, 'a.bin'), destination);
    const index = join(destination, RECEIPTS_NAME);
    const receipts = (await readFile(index, 'utf8')).split('\n').filter(Boolean);
    expect(receipts).toHaveLength(1);
    const other = { ...(JSON.parse(receipts[0]) as Record<string, unknown>), id: 'someone-else' };
    await writeFile(index, `\n${JSON.stringify(other)}`);

    const outcome = await sendInto(join(folder, 'a.bin'), destination);

    expect(resumedBytes(outcome.sender)).toEqual([0]);
    expect(await filesUnder(destination)).toEqual(['a (1).bin', 'a.bin']);
  });
});
