import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A real, throwaway redis-server on a free loopback port, without persistence. Suites that use it
 * are declared with `describeNeeding('redis', …)` (test-support/vitest-tools.ts).
 */
export class RedisProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /** Starts on `port` (a free one by default), so a test can bring a stopped Redis back. */
  static async start(port?: number): Promise<RedisProcess> {
    port ??= await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.once('exit', (code) =>
        reject(new Error(`redis-server exited with ${code}: ${output}`)),
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
    child.stdout?.resume();
    return new RedisProcess(child, `redis://127.0.0.1:${port}`);
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) {
        resolve();
        return;
      }
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}
