import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  filesUnder,
  sha256File,
  writeRandomFile,
  writeTextFile,
} from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { startManInTheMiddle, type ManInTheMiddle } from '../engine/test-support/man-in-the-middle';
import { EXIT } from './exit-codes';
import { startCli, startCliReceiver } from './test-support/cli-process';

const MiB = 1024 * 1024;
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const NOTE = 'read by the middle\n';
const RUN_LINE = /^On the other device run: ferry receive ([a-z-]+) --key=([A-Za-z0-9_-]{22})$/;

const rig = useLoopbackRig();
let middle: ManInTheMiddle | undefined;

beforeAll(async () => {
  middle = await startManInTheMiddle(rig.server.url);
});
afterAll(async () => {
  await middle?.close();
});

describe('the command-line peers through a man in the middle that terminates both DTLS sessions', () => {
  it('send and receive --yes: each DTLS session ends at the middle, and the two Verify: lines differ', async () => {
    if (middle === undefined) throw new Error('the man in the middle did not start');
    const source = join(rig.scratch.path, 'cli-mitm-source');
    await writeRandomFile(join(source, 'archive.bin'), 2 * MiB);
    await writeTextFile(join(source, 'note.txt'), NOTE);
    const destination = join(rig.scratch.path, 'cli-mitm-received');

    const sender = startCli([
      'send',
      '--server',
      middle.url,
      join(source, 'archive.bin'),
      join(source, 'note.txt'),
    ]);
    const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
    const receiver = startCliReceiver(middle.url, destination, code);
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code).toBe(EXIT.ok);
    expect(received.code).toBe(EXIT.ok);
    expect(await filesUnder(destination)).toEqual(['archive.bin', 'note.txt']);
    for (const name of ['archive.bin', 'note.txt']) {
      expect(await sha256File(join(destination, name))).toBe(await sha256File(join(source, name)));
    }
    const [interception, ...others] = middle.interceptions.filter(
      (each) => each.carried.toReceiver.binaryBytes > 0,
    );
    expect(others).toEqual([]);
    expect(interception?.carried.toReceiver.binaryBytes).toBe(2 * MiB + NOTE.length);
    // Each CLI checked its DTLS session against the middle's certificate, not the other CLI's.
    const { sender: senderSaw, receiver: receiverSaw } = interception?.views ?? {};
    expect(senderSaw?.given).toEqual(interception?.middleFingerprints.towardSender);
    expect(receiverSaw?.given).toEqual(interception?.middleFingerprints.towardReceiver);
    expect(senderSaw?.given).toHaveLength(1);
    expect(senderSaw?.given).not.toEqual(receiverSaw?.own);
    expect(receiverSaw?.given).not.toEqual(senderSaw?.own);

    // What each person was shown: each side's verification words hash the fingerprints it saw,
    // so through the middle the two `Verify:` lines differ and the people comparing them notice.
    const shown = { sender: sent.stdout.split('\n'), receiver: received.stdout.split('\n') };
    expect(shown.sender).toContain(`Code: ${code}`);
    expect(shown.receiver).toContainEqual(expect.stringMatching(/^Received 2 files/));
    const verifyLine = (lines: string[]) => lines.filter((line) => line.startsWith('Verify: '));
    expect(verifyLine(shown.sender)).toHaveLength(1);
    expect(verifyLine(shown.receiver)).toHaveLength(1);
    expect(verifyLine(shown.sender)[0]).toMatch(/^Verify: [a-z]+ [a-z]+ [a-z]+ /);
    expect(verifyLine(shown.sender)).not.toEqual(verifyLine(shown.receiver));
  });

  it('receive <link>: the secret link catches the middle, both exit non-zero before any file data, and nothing lands', async () => {
    if (middle === undefined) throw new Error('the man in the middle did not start');
    const file = join(rig.scratch.path, 'cli-mitm-link', 'note.txt');
    await writeTextFile(file, NOTE);
    const destination = join(rig.scratch.path, 'cli-mitm-link-received');
    const before = middle.interceptions.length;

    const sender = startCli(['send', '--server', middle.url, file]);
    const [, code, key] = RUN_LINE.exec(await sender.line(RUN_LINE)) ?? [];
    const receiver = startCliReceiver(
      middle.url,
      destination,
      `${middle.url}/#receive=${code}&key=${key}`,
    );
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(received.code).not.toBe(EXIT.ok);
    expect(received.stderr).toContain('Someone may be intercepting this connection');
    expect(sent.code).not.toBe(EXIT.ok);
    expect(sent.stderr).toContain('Someone may be intercepting this connection');
    expect(await filesUnder(destination)).toEqual([]);
    for (const interception of middle.interceptions.slice(before)) {
      expect(interception.carried.toReceiver.binaryBytes).toBe(0);
    }
  });
});
