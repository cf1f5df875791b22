import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRandomFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { waitInRestoredRoom } from '../engine/test-support/restored-link-impostor';
import { EXIT } from './exit-codes';
import { startCli, startCliReceiver } from './test-support/cli-process';

// docs/protocol.md, "Remembered devices" ("After a lost link"): a restored connection must reach
// the certificate the batch started with.
const MiB = 1024 * 1024;
const SIZE = 256 * MiB;
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

const rig = useLoopbackRig();

async function partSize(folder: string): Promise<number> {
  return stat(join(folder, 'big.bin.part')).then(
    (info) => info.size,
    () => 0,
  );
}

describe('a lost link taken up by someone else', () => {
  it('is refused by the sender before the batch goes on, with no file data sent to it', async () => {
    const file = join(rig.scratch.path, 'restored', 'big.bin');
    await writeRandomFile(file, SIZE);
    const destination = join(rig.scratch.path, 'restored-received');
    const sender = startCli(['send', '--server', rig.server.url, file]);
    const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
    const receiver = startCliReceiver(rig.server.url, destination, code);
    await expect
      .poll(() => partSize(destination), { interval: 20, timeout: 60_000 })
      .toBeGreaterThan(SIZE / 16);

    // The receiver's network goes without a word (its program is frozen, its sockets open), and
    // a third device that knows the code waits where the two would meet again.
    receiver.freeze();
    const impostor = await waitInRestoredRoom(rig.server.url, code);
    try {
      const sent = await sender.exited;
      expect(sent.stdout).toMatch(/^Connection lost — reconnecting \(attempt 1\)…/m);
      expect(sent.code, sent.stdout).toBe(EXIT.failed);
      expect(sent.stderr).toContain(
        'The other device is not the one expected; someone may be intercepting this connection (another device answered when the connection was restored)',
      );
      // The sender is gone, so nothing more can reach the impostor once its connections ended.
      await impostor.settled();
      expect(impostor.dataBytes()).toBe(0);
    } finally {
      impostor.close();
      receiver.resume();
      receiver.kill();
    }
  });
});
