import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { freeBytesIn } from './free-space';
import { useLoopbackRig } from './test-support/loopback-rig';
import { filesUnder, writeRandomFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

// A small file system cannot be made here, so the receiver's free-space reading is replaced
// (the engine's test seam) by one below what the batch needs; everything else is real.
const MiB = 1024 * 1024;

const rig = useLoopbackRig();

async function twoFiles(folder: string): Promise<string[]> {
  const paths = [join(folder, 'a.bin'), join(folder, 'b.bin')];
  for (const path of paths) await writeRandomFile(path, MiB);
  return paths;
}

describe('a receiver without the space for what it is offered', () => {
  it('reads the free space of the destination’s file system', async () => {
    expect(await freeBytesIn(rig.scratch.path)).toBeGreaterThan(0);
  });

  it('refuses the whole batch before accepting it, tells the sender, and writes nothing', async () => {
    const paths = await twoFiles(join(rig.scratch.path, 'batch-source'));
    const destination = join(rig.scratch.path, 'batch-received');
    const read: string[] = [];
    const sizes = `this needs ${formatBytes(2 * MiB)} and ${formatBytes(1.5 * MiB)} is free`;

    const outcome = await transferPair(
      rig.server.url,
      { paths, iceServers: [] },
      {
        destination,
        iceServers: [],
        // Each file fits on its own; the two together do not.
        testSeam: {
          freeBytes: async (folder) => {
            read.push(folder);
            return 1.5 * MiB;
          },
        },
      },
    );

    expect(outcome.receiver).toEqual({
      phase: 'failed',
      direction: 'receive',
      code: 'ERR_DISK_FULL',
      message: `not enough free space in ${destination}: ${sizes}`,
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
      const readings = [4 * MiB, MiB / 2];

      const outcome = await transferPair(
        rig.server.url,
        { paths, iceServers: [], extensions },
        { destination, iceServers: [], testSeam: { freeBytes: async () => readings.shift() ?? 0 } },
      );

      expect(outcome.receiver).toMatchObject({
        phase: 'failed',
        code: 'ERR_DISK_FULL',
        message: `not enough free space in ${destination}: this needs ${formatBytes(MiB)} and ${formatBytes(MiB / 2)} is free`,
      });
      expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
      expect(readings).toEqual([]);
      expect(await filesUnder(destination)).toEqual(['a.bin']);
    },
  );
});
