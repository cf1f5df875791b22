import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder, sha256File, writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { startManInTheMiddle, type ManInTheMiddle } from '../engine/test-support/man-in-the-middle';
import { readStoredDevices } from '../../src-shared/devices/remembered-devices';
import { EXIT } from './exit-codes';
import { startCli } from './test-support/cli-process';

// docs/protocol.md, "Remembered devices", as a person at two command lines sees it: Ana sends
// from one installation (her own FERRY_HOME), Bea receives on another.
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const RUN_LINE = /^On the other device run: ferry receive ([a-z-]+) --key=([A-Za-z0-9_-]{22})$/;
const verifyLines = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => line.startsWith('Verify: '));

const rig = useLoopbackRig();
let middle: ManInTheMiddle | undefined;
let ana = { FERRY_HOME: '' };
let bea = { FERRY_HOME: '' };
let file = '';

function send(env: { FERRY_HOME: string }, server: string, ...flags: string[]) {
  return startCli(['send', '--server', server, ...flags, file], env);
}

function receive(
  env: { FERRY_HOME: string },
  server: string,
  destination: string,
  ...flags: string[]
) {
  return startCli(
    ['receive', '--server', server, '--out', destination, '--yes', '--no-report', ...flags],
    env,
  );
}

beforeAll(async () => {
  middle = await startManInTheMiddle(rig.server.url);
  ana = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-ana-')) };
  bea = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-bea-')) };
  file = join(rig.scratch.path, 'remembered', 'note.txt');
  await writeTextFile(file, 'for a device I know\n');
});
afterAll(async () => {
  await middle?.close();
});

describe('remembered devices at the command line', () => {
  it('a transfer verified by the secret link remembers each side with --remember; new processes know them by name', async () => {
    const sender = send(ana, rig.server.url, '--remember', 'Bea phone');
    const [, code, key] = RUN_LINE.exec(await sender.line(RUN_LINE)) ?? [];
    const link = `${rig.server.url}/#receive=${code}&key=${key}`;
    const first = receive(bea, rig.server.url, join(rig.scratch.path, 'first'), '--remember');
    // `--remember` needs its name: the link is not taken as one.
    expect((await first.exited).code).toBe(EXIT.usage);
    const receiver = receive(
      bea,
      rig.server.url,
      join(rig.scratch.path, 'first'),
      '--remember',
      'Ana laptop',
      link,
    );
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);
    expect(sent.code, sent.stderr).toBe(EXIT.ok);
    expect(received.code, received.stderr).toBe(EXIT.ok);
    expect(sent.stdout).toContain('Remembered the other device as “Bea phone”.');
    expect(received.stdout).toContain('Remembered the other device as “Ana laptop”.');
    // Both kept the pair secret their transfer agreed in-band (docs/protocol.md, "Pair rooms").
    const kept = async (home: { FERRY_HOME: string }) =>
      readStoredDevices(JSON.parse(await readFile(join(home.FERRY_HOME, 'devices.json'), 'utf8')));
    const [atAna, atBea] = await Promise.all([kept(ana), kept(bea)]);
    expect(atAna[0]?.pairSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(atBea[0]?.pairSecret).toBe(atAna[0]?.pairSecret);

    // New processes on both sides, a bare code and no key: each knows the other by name.
    const again = send(ana, rig.server.url);
    const plainCode = CODE_LINE.exec(await again.line(CODE_LINE))?.[1] ?? '';
    const destination = join(rig.scratch.path, 'second');
    const receiverAgain = receive(
      bea,
      rig.server.url,
      destination,
      '--from',
      'ana LAPTOP',
      plainCode,
    );
    const [sentAgain, receivedAgain] = await Promise.all([again.exited, receiverAgain.exited]);
    expect(sentAgain.code, sentAgain.stderr).toBe(EXIT.ok);
    expect(receivedAgain.code, receivedAgain.stderr).toBe(EXIT.ok);
    expect(verifyLines(sentAgain.stdout)).toEqual([
      'Verify: Remembered device “Bea phone” — verified automatically',
    ]);
    expect(verifyLines(receivedAgain.stdout)).toEqual([
      'Verify: Remembered device “Ana laptop” — verified automatically',
    ]);
    expect(await sha256File(join(destination, 'note.txt'))).toBe(await sha256File(file));
  });

  it('through a man in the middle, --from and --to refuse the stranger before any file data', async () => {
    if (middle === undefined) throw new Error('the man in the middle did not start');
    const before = middle.interceptions.length;

    const sender = send(ana, middle.url);
    const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
    const destination = join(rig.scratch.path, 'mitm-from');
    const receiver = receive(bea, middle.url, destination, '--from', 'Ana laptop', code);
    const received = await receiver.exited;
    expect(received.code).toBe(EXIT.failed);
    expect(received.stderr).toContain(
      'The other device is not the one expected; someone may be intercepting this connection (this is not “Ana laptop”)',
    );
    sender.kill();
    await sender.exited;
    expect(await filesUnder(destination)).toEqual([]);

    const guarded = send(ana, middle.url, '--to', 'Bea phone');
    const guardedCode = CODE_LINE.exec(await guarded.line(CODE_LINE))?.[1] ?? '';
    const taker = receive(bea, middle.url, join(rig.scratch.path, 'mitm-to'), guardedCode);
    const refused = await guarded.exited;
    expect(refused.code).toBe(EXIT.failed);
    expect(refused.stderr).toContain('(this is not “Bea phone”)');
    await taker.exited;
    expect(await filesUnder(join(rig.scratch.path, 'mitm-to'))).toEqual([]);
    for (const interception of middle.interceptions.slice(before)) {
      expect(interception.carried.toReceiver.binaryBytes).toBe(0);
    }
  });

  it('devices lists, renames and forgets; a forgotten device is unknown to --from', async () => {
    const listed = await startCli(['devices'], bea).exited;
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.stdout).toMatch(/^This device: .+ \(sha-256 [0-9A-F:]+\)$/m);
    expect(listed.stdout).toMatch(
      /^ {2}Ana laptop — remembered \d{4}-\d\d-\d\d \(sha-256 [0-9A-F:]+\)$/m,
    );

    const renamed = await startCli(['devices', 'rename', 'Ana laptop', 'Ana desk'], bea).exited;
    expect(renamed.stdout).toContain('Renamed “Ana laptop” to “Ana desk”.');
    const forgotten = await startCli(['devices', 'forget', 'Ana desk'], bea).exited;
    expect(forgotten.code).toBe(EXIT.ok);
    expect(forgotten.stdout).toContain('Forgot “Ana desk”.');
    expect((await startCli(['devices'], bea).exited).stdout).toContain('No remembered devices.');

    const unknown = await receive(
      bea,
      rig.server.url,
      rig.scratch.path,
      '--from',
      'Ana desk',
      'plum-otter-cask',
    ).exited;
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain('no device is remembered as “Ana desk”');
  });
});
