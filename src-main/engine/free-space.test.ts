import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { FREE_SPACE_RESERVE_MIN_BYTES } from '../../src-shared/protocol/limits';
import { freeSpaceIn } from './free-space';
import { useLoopbackRig } from './test-support/loopback-rig';
import { filesUnder, writeRandomFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

// A small file system cannot be made here, so the receiver's free-space reading is replaced
// (the engine's test seam) by one below what the batch needs; everything else is real.
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;
/** A volume whose reserve is the floor, FREE_SPACE_RESERVE_MIN_BYTES (2 % of it is less). */
const SMALL_VOLUME = 16 * GiB;
const RESERVE = FREE_SPACE_RESERVE_MIN_BYTES;
/** The reserve named in a refusal, after the sizes. */
const keptFree = (reserve: number) =>
  `, of which ${formatBytes(reserve)} is kept free for the system`;

/** A reading of `free` bytes beyond the reserve of a small volume. */
const beyondReserve = (free: number) => ({ freeBytes: RESERVE + free, volumeBytes: SMALL_VOLUME });

const rig = useLoopbackRig();

async function twoFiles(folder: string): Promise<string[]> {
  const paths = [join(folder, 'a.bin'), join(folder, 'b.bin')];
  for (const path of paths) await writeRandomFile(path, MiB);
  return paths;
}

describe('a receiver without the space for what it is offered', () => {
  it('reads the free space of the destination’s file system, and its size', async () => {
    const { freeBytes, volumeBytes } = await freeSpaceIn(rig.scratch.path);
    expect(freeBytes).toBeGreaterThan(0);
    expect(volumeBytes).toBeGreaterThanOrEqual(freeBytes);
  });

  it('refuses the whole batch before accepting it, tells the sender, and writes nothing', async () => {
    const paths = await twoFiles(join(rig.scratch.path, 'batch-source'));
    const destination = join(rig.scratch.path, 'batch-received');
    const read: string[] = [];
    const sizes = `this needs ${formatBytes(2 * MiB)} and ${formatBytes(RESERVE + 1.5 * MiB)} is free${keptFree(RESERVE)}`;

    const outcome = await transferPair(
      rig.server.url,
      { paths, iceServers: [] },
      {
        destination,
        iceServers: [],
        // Each file fits on its own; the two together do not.
        testSeam: {
          freeSpace: async (folder) => {
            read.push(folder);
            return beyondReserve(1.5 * MiB);
          },
        },
      },
    );

    expect(outcome.receiver).toMatchObject({
      phase: 'failed',
      direction: 'receive',
      code: 'ERR_DISK_FULL',
      message: `not enough free space in ${destination}: ${sizes}`,
      // Nothing arrived, which the history keeps beside who it came from.
      arrived: [],
      peer: { check: { kind: 'words' } },
    });
    expect(outcome.sender).toMatchObject({
      phase: 'failed',
      code: 'ERR_PEER_ABORTED',
      message: `the receiving device does not have enough free space: ${sizes}`,
    });
    expect(read).toEqual([destination]);
    expect(await filesUnder(destination)).toEqual([]);
  });

  // With resume agreed a file is judged once its kept part is looked for; without, before it opens.
  it.each([
    ['with resume agreed', true],
    ['on the spec’s wire alone', false],
  ])(
    '%s, refuses a later file that no longer fits, keeps the files before it and leaves no .part',
    async (_how, extensions) => {
      const paths = await twoFiles(join(rig.scratch.path, `file-source-${extensions}`));
      const destination = join(rig.scratch.path, `file-received-${extensions}`);
      // Room for the batch when it is accepted; by the second file, something else took it.
      const readings = [beyondReserve(4 * MiB), beyondReserve(MiB / 2)];

      const outcome = await transferPair(
        rig.server.url,
        { paths, iceServers: [], extensions },
        {
          destination,
          iceServers: [],
          testSeam: { freeSpace: async () => readings.shift() ?? beyondReserve(0) },
        },
      );

      expect(outcome.receiver).toMatchObject({
        phase: 'failed',
        code: 'ERR_DISK_FULL',
        message: `not enough free space in ${destination}: this needs ${formatBytes(MiB)} and ${formatBytes(RESERVE + MiB / 2)} is free${keptFree(RESERVE)}`,
      });
      expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
      expect(readings).toEqual([]);
      expect(await filesUnder(destination)).toEqual(['a.bin']);
    },
  );

  it('keeps 2 % of a large volume free: a batch that would eat into it is refused, one that leaves it is not', async () => {
    const paths = await twoFiles(join(rig.scratch.path, 'share-source'));
    // 2 % of 50 TiB is 1 TiB, the reserve here.
    const volumeBytes = 50 * TiB;
    const reserve = TiB;
    expect(reserve).toBeGreaterThan(RESERVE);
    const into = (name: string, free: number) =>
      transferPair(
        rig.server.url,
        { paths, iceServers: [] },
        {
          destination: join(rig.scratch.path, name),
          iceServers: [],
          testSeam: {
            freeSpace: async () => ({ freeBytes: reserve + free, volumeBytes }),
          },
        },
      );

    const short = await into('share-short', MiB);
    expect(short.receiver).toMatchObject({
      phase: 'failed',
      code: 'ERR_DISK_FULL',
      message: expect.stringContaining(keptFree(reserve)) as unknown,
    });
    expect(await filesUnder(join(rig.scratch.path, 'share-short'))).toEqual([]);

    const room = await into('share-room', 2 * MiB);
    expect(room.receiver).toMatchObject({ phase: 'done' });
    expect(await filesUnder(join(rig.scratch.path, 'share-room'))).toEqual(['a.bin', 'b.bin']);
  });
});
