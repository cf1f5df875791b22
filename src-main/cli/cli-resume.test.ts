import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFY_BLOCK_BYTES } from '../../src-shared/protocol';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { filesUnder, sha256File, writeRandomFile } from '../engine/test-support/files-on-disk';
import { EXIT } from './exit-codes';
import { startCli, startCliReceiver, type CliProcess } from './test-support/cli-process';

const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const SIZE = 48 * VERIFY_BLOCK_BYTES + 777;
const RESUME_TIMEOUT_MS = 120_000;

const rig = useLoopbackRig();

async function partSize(folder: string): Promise<number> {
  return stat(join(folder, 'big.bin.part')).then(
    (info) => info.size,
    () => 0,
  );
}

function send(file: string): CliProcess {
  return startCli(['send', '--server', rig.server.url, file]);
}

function receive(code: string, destination: string): CliProcess {
  return startCliReceiver(rig.server.url, destination, code);
}

async function codeOf(sender: CliProcess): Promise<string> {
  return CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
}

describe('the command-line peer resuming', () => {
  it(
    'a receiver killed partway keeps its .part; the sender says its program ended; sending again moves only the rest',
    async () => {
      const file = join(rig.scratch.path, 'kill', 'big.bin');
      await writeRandomFile(file, SIZE);
      const destination = join(rig.scratch.path, 'kill-received');

      const firstSender = send(file);
      const firstReceiver = receive(await codeOf(firstSender), destination);
      await expect
        .poll(() => partSize(destination), { interval: 20, timeout: 60_000 })
        .toBeGreaterThan(SIZE / 2);
      firstReceiver.kill();
      const abandoned = await firstSender.exited;
      // Its program ended, so there is nothing to reconnect to: the sender says so at once.
      expect(abandoned.code, abandoned.stdout).toBe(EXIT.failed);
      expect(abandoned.stdout).not.toMatch(/reconnecting/);
      expect(abandoned.stderr).toMatch(
        /The other device closed the connection \(its program ended\)/,
      );
      expect(await filesUnder(destination)).toEqual(['big.bin.part', 'big.bin.part.ferry']);
      const kept = await partSize(destination);

      const secondSender = send(file);
      const secondReceiver = receive(await codeOf(secondSender), destination);
      const [sent, received] = await Promise.all([secondSender.exited, secondReceiver.exited]);

      expect(received.code, received.stderr).toBe(EXIT.ok);
      expect(sent.code, sent.stderr).toBe(EXIT.ok);
      expect(received.stdout).toMatch(
        /^Receiving big\.bin \(1\/1, [^;]+; resuming, .+ already there\)$/m,
      );
      expect(received.stdout).toMatch(/^ {2}big\.bin \(verified, .+ was already there\)$/m);
      expect(sent.stdout).toMatch(/^Delivered and verified 1 file/m);
      // Only the rest moved: what the second receiver wrote is under 60 % of the file.
      const after = await stat(join(destination, 'big.bin'));
      expect(after.size).toBe(SIZE);
      expect(SIZE - Math.floor(kept / VERIFY_BLOCK_BYTES) * VERIFY_BLOCK_BYTES).toBeLessThan(
        SIZE * 0.6,
      );
      expect(await filesUnder(destination)).toEqual(['big.bin']);
      expect(await sha256File(join(destination, 'big.bin'))).toBe(await sha256File(file));
    },
    RESUME_TIMEOUT_MS,
  );
});
