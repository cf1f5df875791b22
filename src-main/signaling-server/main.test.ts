import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();

// Each run leads its own process group, so a failed test still takes npm, its shell and node down.
afterEach(() => {
  for (const child of children) {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }
  children.clear();
});

function npmRunServer(env: Record<string, string>): Run {
  const child = spawn('npm', ['run', '--silent', 'server'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

function announcedUrl(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = /listening on (http:\/\/\S+)/.exec(run.stdout());
      if (match) resolve(match[1]);
    };
    run.child.stdout?.on('data', look);
    run.exited.then((code) => reject(new Error(`Exited with ${code}: ${run.stderr()}`)));
    look();
  });
}

describe('npm run server', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'logs one line with its URL, answers /health, and exits cleanly on %s',
    async (signal) => {
      const run = npmRunServer({});
      const url = await announcedUrl(run);
      const response = await fetch(`${url}/health`);
      expect(await response.json()).toMatchObject({ status: 'healthy' });
      run.child.kill(signal);
      expect(await run.exited).toBe(0);
      expect(run.stdout().trim().split('\n')).toEqual([
        `Ferry signaling server listening on ${url}`,
      ]);
    },
  );

  it('takes its limits from the environment', async () => {
    const run = npmRunServer({ MAX_TURN_REQUESTS_PER_IP: '1' });
    const url = await announcedUrl(run);
    expect((await fetch(`${url}/api/turn-credentials`)).status).toBe(200);
    expect((await fetch(`${url}/api/turn-credentials`)).status).toBe(429);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it.each([
    ['MAX_CONNECTIONS_PER_IP', 'many'],
    ['PORT', '70000'],
    ['TRUSTED_PROXY_COUNT', '-1'],
    ['REDIS_URL', 'localhost:6379'],
  ])('stops with a one-line error naming %s when it is %s', async (name, value) => {
    const run = npmRunServer({ [name]: value });
    expect(await run.exited).not.toBe(0);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(lines[0]).not.toMatch(/\bat /);
  });

  it('stops with a one-line error when the Redis of REDIS_URL cannot be reached', async () => {
    const vacated = createServer();
    await new Promise<void>((resolve) => vacated.listen(0, '127.0.0.1', resolve));
    const address = vacated.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise((resolve) => vacated.close(resolve));
    const run = npmRunServer({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(await run.exited).not.toBe(0);
    expect(run.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Cannot start the signaling server: Cannot use REDIS_URL: .*ECONNREFUSED/,
      ),
    ]);
  });

  it('stops with a one-line error when its port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const run = npmRunServer({ PORT: String(port) });
      expect(await run.exited).not.toBe(0);
      expect(run.stderr().trim().split('\n')).toEqual([
        expect.stringMatching(/^Cannot start the signaling server: .*EADDRINUSE/),
      ]);
    } finally {
      blocker.close();
    }
  });
});
