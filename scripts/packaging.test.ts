import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onCi, skipLine } from '../test-support/required-tools';
import { startSignalingServer, type RunningServer } from '../src-main/signaling-server';
import { ROOT } from './build.mjs';

// `npm pack` and `npm install -g` of the tarball, as a person installs Ferry on a fresh machine.
// The install fetches the dependencies from the npm registry and takes most of a minute, so it
// runs under CI=true (.ci/run), and elsewhere prints its one skip line.
const TITLE = 'the npm package, installed with npm install -g';
// Pack, install and one transfer: most of it is the install's downloads.
const PACKAGING_TIMEOUT_MS = 240_000;
const CODE_LINE = /^Code: (\S+)$/m;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the installed `ferry`, resolving when it exits; `onLine` sees each stdout line. */
function ferry(bin: string, args: string[], onLine: (line: string) => void = () => {}) {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout += `${line}\n`;
    onLine(line);
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<Run>((done) =>
    child.once('close', (status) => done({ status, stdout, stderr })),
  );
  return { child, exited };
}

function packagingSuite(): void {
  let scratch = '';
  let server: RunningServer | undefined;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ferry-packaging-'));
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'runs `ferry --help`, and sends and receives, with no TypeScript loader installed',
    async () => {
      execFileSync('npm', ['pack', '--pack-destination', scratch], { cwd: ROOT, stdio: 'ignore' });
      const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz')) ?? '';
      const prefix = join(scratch, 'prefix');
      execFileSync(
        'npm',
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          join(scratch, tarball),
        ],
        { cwd: scratch, stdio: 'ignore' },
      );
      const bin = join(prefix, 'bin/ferry');
      const installed = join(prefix, 'lib/node_modules/ferry');

      const help = await ferry(bin, ['--help']).exited;
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('ferry send');
      // What runs is what the build made: no source and no loader came along.
      expect(existsSync(join(installed, 'node_modules/tsx'))).toBe(false);
      expect(existsSync(join(installed, 'src-main'))).toBe(false);

      server = await startSignalingServer({
        host: '127.0.0.1',
        port: 0,
        log: { info: () => undefined, error: () => undefined },
      });
      const sent = join(scratch, 'sent.bin');
      const bytes = randomBytes(256 * 1024);
      writeFileSync(sent, bytes);
      const into = join(scratch, 'received');
      mkdirSync(into);

      let announce: (code: string) => void = () => undefined;
      const code = new Promise<string>((resolve) => (announce = resolve));
      const sender = ferry(bin, ['send', '--server', server.url, sent], (line) => {
        const found = CODE_LINE.exec(line);
        if (found) announce(found[1] ?? '');
      });
      children.push(sender.child);
      const announced = await Promise.race([code, sender.exited]);
      expect(typeof announced, 'the sender exited before printing its code').toBe('string');
      const receiver = ferry(bin, [
        'receive',
        '--server',
        server.url,
        '--yes',
        '--out',
        into,
        String(announced),
      ]);
      children.push(receiver.child);

      const [sending, receiving] = await Promise.all([sender.exited, receiver.exited]);
      expect(receiving.status, receiving.stderr).toBe(0);
      expect(sending.status, sending.stderr).toBe(0);
      expect(readFileSync(join(into, 'sent.bin')).equals(bytes)).toBe(true);
    },
    PACKAGING_TIMEOUT_MS,
  );
}

if (onCi()) {
  describe(TITLE, packagingSuite);
} else {
  // Straight to stdout: vitest's console capture would add a header line to it.
  process.stdout.write(
    `${skipLine('needs the npm registry and a minute; it runs under CI=true', `scripts/packaging.test.ts › ${TITLE}`)}\n`,
  );
  describe.skip(TITLE, packagingSuite);
}
