import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
// tsx's loader in the program's own process (its bin would start a second one): one pid per
// program, so a kill ends the program itself.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface CliExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  /** Resolves with the first stdout line matching `pattern` (already printed ones count). */
  line(pattern: RegExp): Promise<string>;
  /** Sends text to the command's standard input. */
  type(text: string): void;
  /** Ends the command's standard input, as the end of a pipe does. */
  endInput(): void;
  /** Ends the program at once, as a crash or a closed laptop lid would: nothing runs after. */
  kill(): void;
  /** Ctrl-C, once: the program stops as a person stops it. */
  interrupt(): void;
  /**
   * Freezes the program (SIGSTOP) until `resume`: its sockets stay open but nothing it should
   * send or read moves, as when its network goes away without a word.
   */
  freeze(): void;
  resume(): void;
  readonly exited: Promise<CliExit>;
}

/**
 * The command-line peer as a person runs it, from its source (`npm run cli -- ...` runs the
 * same program as the build compiled it), with stdout a pipe, so it prints plain lines rather
 * than a bar.
 */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', tsxLoader, 'src-main/cli/main.ts', ...args], {
    cwd: repository,
    env: { ...process.env, FERRY_SERVER: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    for (const check of waiting) check();
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<CliExit>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return {
    exited,
    type: (text) => child.stdin.write(text),
    endInput: () => child.stdin.end(),
    kill: () => child.kill('SIGKILL'),
    interrupt: () => child.kill('SIGINT'),
    freeze: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    line: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = stdout.split('\n').find((line) => pattern.test(line));
          if (found === undefined) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
        void exited.then(({ code }) => {
          if (!waiting.has(check)) return;
          waiting.delete(check);
          reject(new Error(`exited ${code} before printing ${pattern}:\n${stdout}\n${stderr}`));
        });
      }),
  };
}

/** A command-line receiver that accepts at once into `destination` and reports nothing. */
export function startCliReceiver(serverUrl: string, destination: string, code: string): CliProcess {
  return startCli([
    'receive',
    '--server',
    serverUrl,
    '--out',
    destination,
    '--yes',
    '--no-report',
    code,
  ]);
}
