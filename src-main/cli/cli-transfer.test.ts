import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { CLI_UPDATE_COMMAND } from '../../src-shared/protocol';
import { STATS_PATH } from '../../src-shared/signaling/endpoints';
import { sendFiles, receiveFiles } from '../engine';
import {
  filesUnder,
  sha256File,
  writeRandomFile,
  writeTextFile,
} from '../engine/test-support/files-on-disk';
import { startLoopbackServer } from '../engine/test-support/loopback-server';
import { EXIT } from './exit-codes';
import { startCli, startCliReceiver } from './test-support/cli-process';

const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

const rig = useLoopbackRig();

function codeOf(line: string): string {
  return CODE_LINE.exec(line)?.[1] ?? '';
}

describe('the command-line peer', () => {
  it('sends a folder and a file: the code on its own line, exit 0 on both sides, identical files', async () => {
    const source = join(rig.scratch.path, 'cli-source');
    await writeTextFile(join(source, 'folder', 'inner', 'note.txt'), 'nested note\n');
    await writeRandomFile(join(source, 'data.bin'), 3 * 1024 * 1024);
    const destination = join(rig.scratch.path, 'cli-received');

    const sender = startCli([
      'send',
      '--server',
      rig.server.url,
      join(source, 'folder'),
      join(source, 'data.bin'),
    ]);
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = startCliReceiver(rig.server.url, destination, code);
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code).toBe(EXIT.ok);
    expect(received.code).toBe(EXIT.ok);
    expect(received.stdout).toMatch(/^Received 2 files/m);
    expect(await filesUnder(destination)).toEqual(['data.bin', 'folder/inner/note.txt']);
    expect(await sha256File(join(destination, 'data.bin'))).toBe(
      await sha256File(join(source, 'data.bin')),
    );
    // --no-report: nothing was added to the server's anonymous counter.
    const stats = await fetch(new URL(STATS_PATH, rig.server.url));
    expect(await stats.json()).toEqual({ totalBytes: 0 });
  });

  it('asks before accepting; a "no" is named to the sender, which hears it at once', async () => {
    const file = join(rig.scratch.path, 'cli-declined', 'unwanted.txt');
    await writeTextFile(file, 'no thanks');
    const destination = join(rig.scratch.path, 'cli-declined-received');

    const sender = startCli(['send', '--server', rig.server.url, file]);
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = startCli(['receive', '--server', rig.server.url, '--out', destination, code]);
    await receiver.line(/1 file.*unwanted\.txt/);
    await receiver.line(/\[y\/N\]/);
    receiver.type('n\n');
    const [declined, sent] = await Promise.all([receiver.exited, sender.exited]);

    expect(declined.code).toBe(EXIT.declined);
    expect(sent.code).toBe(EXIT.declined);
    expect(sent.stderr).toMatch(/^Declined by the other person\.$/m);
    expect(sent.stderr).not.toMatch(/Error|closed the connection/);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('against a newer peer, prints the remedy on either side and the receiver writes nothing', async () => {
    const file = join(rig.scratch.path, 'cli-newer', 'future.txt');
    await writeTextFile(file, 'from a newer Ferry');
    const destination = join(rig.scratch.path, 'cli-newer-received');

    const newerSender = sendFiles({
      serverUrl: rig.server.url,
      paths: [file],
      remedySurface: 'cli',
      protocolVersion: { pv: 2, pvMin: 2 },
    });
    const code = await new Promise<string>((resolve) =>
      newerSender.on('state', (state) => state.phase === 'waiting-for-peer' && resolve(state.code)),
    );
    const receiver = startCli([
      'receive',
      '--server',
      rig.server.url,
      '--out',
      destination,
      '--yes',
      code,
    ]);
    const [received] = await Promise.all([receiver.exited, newerSender.finished]);

    expect(received.code).toBe(EXIT.incompatible);
    expect(received.stderr).toContain(CLI_UPDATE_COMMAND);
    expect(await filesUnder(destination)).toEqual([]);

    const sender = startCli(['send', '--server', rig.server.url, file]);
    const newerReceiver = receiveFiles({
      serverUrl: rig.server.url,
      code: codeOf(await sender.line(CODE_LINE)),
      destination,
      remedySurface: 'cli',
      protocolVersion: { pv: 2, pvMin: 2 },
    });
    const [sent] = await Promise.all([sender.exited, newerReceiver.finished]);

    expect(sent.code).toBe(EXIT.incompatible);
    expect(sent.stderr).toContain(CLI_UPDATE_COMMAND);
  });

  it('says in one sentence when the server cannot be reached, with its own exit status', async () => {
    const closed = await startLoopbackServer();
    await closed.close();

    const receiver = startCli(['receive', '--server', closed.url, 'acid-acorn-acre']);
    const { code, stderr } = await receiver.exited;

    expect(code).toBe(EXIT.unreachable);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/could not reach signaling server/i);
  });

  it('runs as the ferry bin, whose --help documents every exit status; a wrong command line exits 2', () => {
    const bin = fileURLToPath(new URL('../../bin/ferry.js', import.meta.url));
    // The bin runs the build's output (dist/), so the build comes first, as `npm install` does.
    const build = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
    expect(spawnSync(process.execPath, [build, 'programs']).status).toBe(0);
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    const wrong = spawnSync(process.execPath, [bin, 'fly'], { encoding: 'utf8' });

    expect(help.status).toBe(EXIT.ok);
    for (const status of Object.values(EXIT))
      expect(help.stdout).toMatch(new RegExp(`^\\s+${status}\\s`, 'm'));
    expect(wrong.status).toBe(EXIT.usage);
  });
});
