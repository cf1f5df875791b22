import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import { startTestCluster } from '../test-support/test-cluster';
import { within } from '../test-support/within';

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
const TRANSFER_DEADLINE_MS = 45_000;

interface PeerRun {
  /** The first stdout line matching `pattern`. */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  output(): string;
  kill(): void;
}

const runs: PeerRun[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const run of runs.splice(0)) run.kill();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true })));
});

/** The command-line peer in its own process, as on two machines. */
function cliPeer(args: string[]): PeerRun {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const run: PeerRun = {
    line: (pattern) =>
      new Promise((resolve) => {
        const look = () => {
          const match = pattern.exec(output);
          if (match === null) return;
          waiters.delete(look);
          resolve(match);
        };
        waiters.add(look);
        look();
      }),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    output: () => output,
    kill: () => child.kill('SIGKILL'),
  };
  runs.push(run);
  return run;
}

async function folder(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'ferry-cluster-'));
  folders.push(path);
  return path;
}

describeNeeding('redis', 'a command-line transfer through a cluster', () => {
  it('succeeds with the sender on one server and the receiver on another', async () => {
    const { servers } = await startTestCluster(2);
    const source = await folder();
    const content = randomBytes(1024 * 1024);
    await writeFile(join(source, 'photo.raw'), content);
    const destination = await folder();

    const sender = cliPeer(['send', '--server', servers[0].url, join(source, 'photo.raw')]);
    const [, code] = await within(TRANSFER_DEADLINE_MS, 'code', sender.line(/^Code: (\S+)$/m));
    const receiver = cliPeer([
      'receive',
      '--server',
      servers[1].url,
      '--out',
      destination,
      '--yes',
      code,
    ]);

    const exits = await within(
      TRANSFER_DEADLINE_MS,
      'both peers finishing',
      Promise.all([sender.exited, receiver.exited]),
    );
    expect(exits, `${sender.output()}\n${receiver.output()}`).toEqual([0, 0]);
    expect((await readFile(join(destination, 'photo.raw'))).equals(content)).toBe(true);
    // The receiver reported its bytes to B; both servers count them in one total (A hears of it
    // through Redis a moment later: GET /api/stats answers from memory).
    for (const server of servers) {
      await expect
        .poll(async () => (await fetch(`${server.url}/api/stats`)).json())
        .toEqual({ totalBytes: content.length });
    }
  });
});
