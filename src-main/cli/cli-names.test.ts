import { hostname } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanDeviceName } from '../../src-shared/devices/device-name';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { EXIT } from './exit-codes';
import { startCli } from './test-support/cli-process';

// docs/protocol.md, "The name shown": each side's name travels in its `ferry-caps`, and the other
// side prints it on its `Incoming:` or `Connected:` line.
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

const rig = useLoopbackRig();
let ana = { FERRY_HOME: '' };
let bea = { FERRY_HOME: '' };
let file = '';

beforeAll(async () => {
  ana = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-ana-')) };
  bea = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-bea-')) };
  file = join(rig.scratch.path, 'names', 'note.txt');
  await writeTextFile(file, 'who sent this?\n');
});

async function transfer(sendFlags: string[], receiveFlags: string[], out: string) {
  const sender = startCli(['send', '--server', rig.server.url, ...sendFlags, file], ana);
  const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
  const receiver = startCli(
    [
      'receive',
      '--server',
      rig.server.url,
      '--out',
      join(rig.scratch.path, out),
      '--yes',
      '--no-report',
      ...receiveFlags,
      code,
    ],
    bea,
  );
  const [sent, received] = await Promise.all([sender.exited, receiver.exited]);
  expect(sent.code, sent.stderr).toBe(EXIT.ok);
  expect(received.code, received.stderr).toBe(EXIT.ok);
  return { sent: sent.stdout, received: received.stdout };
}

describe('each command line names itself to the other', () => {
  it('--name reaches the receiver’s Incoming: line and the sender’s Connected: line', async () => {
    const { sent, received } = await transfer(
      ['--name', '  Ana’s   laptop '],
      ['--name', 'Bea desk'],
      'named',
    );
    expect(received).toMatch(/^Incoming: 1 file, 15 B in all, "note\.txt", from Ana’s laptop \(/m);
    expect(sent).toMatch(/^Connected: Bea desk$/m);
  });

  it('without --name, each goes by the computer’s name', async () => {
    const { sent, received } = await transfer([], [], 'unnamed');
    const computer = cleanDeviceName(hostname()) ?? 'Ferry';
    expect(received).toContain(`", from ${computer} (`);
    expect(sent).toMatch(
      new RegExp(`^Connected: ${computer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
    );
  });

  it('refuses a --name that is empty once cleaned', async () => {
    const sender = startCli(['send', '--server', rig.server.url, '--name', ' \u200b ', file], ana);
    const ended = await sender.exited;
    expect(ended.code).toBe(EXIT.usage);
    expect(ended.stderr).toContain('--name needs a name for this device');
  });
});
