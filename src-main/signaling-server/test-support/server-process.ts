import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `npm run server`'s entry point, run directly so that a signal reaches the server itself. */
export const SIGNALING_SERVER_MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

/** A server in its own process on loopback: its memory is its own, and it can really die. */
export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /** Runs `script` under tsx and waits for the "listening on <url>" line it prints. */
  static async start(script: string, env: Record<string, string>): Promise<ServerProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${errors}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]);
      });
    });
    child.stdout?.resume();
    return new ServerProcess(child, url);
  }

  /** Resident memory in bytes, from /proc (Linux). */
  rssBytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    if (kb === undefined) throw new Error('No VmRSS in /proc status');
    return Number(kb) * 1024;
  }

  /** Sends `signal` and resolves once the process is gone. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        resolve();
        return;
      }
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}
