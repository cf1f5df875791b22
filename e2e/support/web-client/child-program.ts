import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { typeScriptArgs } from '../netns';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

const STOP_TIMEOUT_MS = 10_000;

/** One of Ferry's own programs (server, web host, CLI) run as a real process from its source. */
export class ChildProgram {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #exited: Promise<number | null>;

  constructor(script: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
    this.#child = spawn(process.execPath, typeScriptArgs(resolve(REPO_ROOT, script), ...args), {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.#lines.push(line);
        for (const waiter of [...this.#waiters]) waiter();
      });
    }
    this.#exited = new Promise((done) => this.#child.once('exit', (code) => done(code)));
    void this.#exited.then(() => {
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  /** Everything it printed so far, stdout and stderr interleaved. */
  get output(): string {
    return this.#lines.join('\n');
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Resolves with the first line (printed or still to come) that matches; rejects on exit or deadline. */
  waitForLine(match: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolveLine, reject) => {
      const check = (): void => {
        for (const line of this.#lines) {
          const found = line.match(match);
          if (found) return finish(() => resolveLine(found));
        }
        if (!this.running) {
          finish(() => reject(new Error(`exited before printing ${match}:\n${this.output}`)));
        }
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`no line matching ${match} within ${timeoutMs} ms:\n${this.output}`)),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        settle();
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Types a line on its standard input. */
  type(line: string): void {
    this.#child.stdin?.write(`${line}\n`);
  }

  waitForExit(timeoutMs: number): Promise<number | null> {
    return Promise.race([
      this.#exited,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`still running after ${timeoutMs} ms:\n${this.output}`)),
          timeoutMs,
        ),
      ),
    ]);
  }

  /** Sends `signal`, then SIGKILL if it is still running after a while. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.running) return this.#exited;
    this.#child.kill(signal);
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    try {
      return await this.#exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
