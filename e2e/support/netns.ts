import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/**
 * Every namespace this harness creates is named `<prefix><creator pid>-<n>-<a|b>`, so a later run
 * can tell a crashed run's leftovers (creator gone) from a live run's (creator still running).
 */
export const NETNS_PREFIX = 'ferry-test-';

/** The link's name inside both namespaces: what a container's interface is usually called. */
export const LINK_INTERFACE = 'eth0';

const DEFAULT_ADDRESSES = ['10.231.0.1', '10.231.0.2'] as const;
const PREFIX_LENGTH = 24;
const COMMAND_TIMEOUT_MS = 10_000;
const LINE_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
/** A new veth pair reports carrier only once the kernel's link watcher runs: about a second. */
const CARRIER_TIMEOUT_MS = 10_000;
const CARRIER_POLL_MS = 25;

/**
 * Arguments that make `process.execPath` run a TypeScript file. Inside `ip netns exec` neither
 * PATH nor the working directory can be relied on, so everything is absolute, and tsx is loaded
 * in-process: one pid per program, which a signal reaches directly.
 */
export function typeScriptArgs(script: string, ...args: string[]): string[] {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', loader, script, ...args];
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface NetnsProcess {
  readonly pid: number;
  /** Resolves with the first stdout line (past or future) that matches; rejects on exit or deadline. */
  waitForLine(match: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (null after a signal); rejects at the deadline. */
  waitForExit(timeoutMs?: number): Promise<number | null>;
  /** The command line, and everything the process printed so far: for failure messages. */
  transcript(): string;
  /** Sends `signal`, and SIGKILL if the process outlives the deadline; resolves with the exit code. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

export interface NetnsHost {
  readonly namespace: string;
  /** This end's address on the link; it exists nowhere outside the two namespaces. */
  readonly address: string;
  readonly interfaceName: string;
  /** Runs a command to completion inside the namespace; never rejects on a non-zero exit. */
  run(command: string, args?: readonly string[], timeoutMs?: number): Promise<CommandResult>;
  /** Starts a long-running program inside the namespace; destroy() ends it if nothing else does. */
  spawn(command: string, args?: readonly string[]): NetnsProcess;
}

export interface NetnsPair {
  readonly a: NetnsHost;
  readonly b: NetnsHost;
  /**
   * Cuts the route between the two ends (a blackhole route to the other's address in each
   * namespace, so every packet either way is dropped and no interface changes); the returned
   * function restores it.
   */
  cutRoute(): Promise<() => Promise<void>>;
  /** Ends every process in both namespaces and deletes them (the link goes with them). */
  destroy(): Promise<void>;
}

export interface NetnsPairOptions {
  addresses?: readonly [string, string];
}

function ip(args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile('ip', args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });
}

async function ipOrThrow(args: readonly string[]): Promise<void> {
  const result = await ip(args);
  if (result.code !== 0) throw new Error(`ip ${args.join(' ')} failed: ${result.stderr.trim()}`);
}

/**
 * Resolves once the link is up with carrier in `namespace`. Until then the kernel reports it
 * NO-CARRIER and a program started inside sees no address on it (libuv lists running
 * interfaces only), so it would believe the device offline.
 */
async function waitForCarrier(namespace: string): Promise<void> {
  const deadline = Date.now() + CARRIER_TIMEOUT_MS;
  for (;;) {
    const { stdout } = await ip(['-n', namespace, '-br', 'link', 'show', 'dev', LINK_INTERFACE]);
    // `ip -br link` prints "<name> <operstate> <mac> <flags>".
    if (stdout.split(/\s+/)[1] === 'UP') return;
    if (Date.now() > deadline) {
      throw new Error(
        `${LINK_INTERFACE} in ${namespace} had no carrier after ${CARRIER_TIMEOUT_MS} ms: ${stdout}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, CARRIER_POLL_MS));
  }
}

async function listNamespaces(): Promise<string[]> {
  const result = await ip(['netns', 'list']);
  // Lines read "name" or "name (id: 3)".
  return result.stdout
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name): name is string => Boolean(name));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function killNamespaceProcesses(namespace: string): Promise<void> {
  const { stdout } = await ip(['netns', 'pids', namespace]);
  for (const pid of stdout.split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone between listing and killing.
    }
  }
}

/** Deletes this harness's namespaces whose creating process no longer runs; returns their names. */
export async function removeStaleNetns(): Promise<string[]> {
  const owned = new RegExp(`^${NETNS_PREFIX}(\\d+)-`);
  const stale = (await listNamespaces()).filter((name) => {
    const creator = owned.exec(name)?.[1];
    return creator !== undefined && !isRunning(Number(creator));
  });
  for (const name of stale) await ip(['netns', 'delete', name]);
  return stale;
}

let usable: Promise<boolean> | undefined;

/** True when this process may create namespaces and veth links (root, iproute2, kernel support). */
export function canUseNetns(): Promise<boolean> {
  usable ??= (async () => {
    if (process.getuid?.() !== 0) return false;
    const probe = `${NETNS_PREFIX}${process.pid}-probe`;
    if ((await ip(['netns', 'add', probe])).code !== 0) return false;
    try {
      const veth = await ip(['-n', probe, ...'link add p0 type veth peer name p1'.split(' ')]);
      return veth.code === 0;
    } finally {
      await ip(['netns', 'delete', probe]);
    }
  })();
  return usable;
}

// Namespaces created by this process and not yet destroyed, for the last-resort exit cleanup.
const live = new Set<string>();
let exitCleanupInstalled = false;

function installExitCleanup(): void {
  if (exitCleanupInstalled) return;
  exitCleanupInstalled = true;
  // A test that throws past its afterAll still leaves no namespace behind.
  process.once('exit', () => {
    for (const namespace of live) spawnSync('ip', ['netns', 'delete', namespace]);
  });
}

function startProcess(namespace: string, command: string, args: readonly string[]): NetnsProcess {
  const child: ChildProcess = spawn('ip', ['netns', 'exec', namespace, command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const lineWaiters = new Set<(line: string) => void>();
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // A failed spawn still ends in 'close'; without a listener its 'error' would crash the runner.
  child.once('error', (error) => {
    stderr += error.message;
  });
  const stdout = createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    lineWaiters.forEach((waiter) => waiter(line));
  });
  // The reader may still hand out its last lines after the process has closed: an exit counts
  // once both are done, so every line printed is seen by then.
  const stdoutRead = new Promise<void>((resolve) => stdout.once('close', resolve));
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => void stdoutRead.then(() => resolve(code)));
  });
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });

  const transcript = () =>
    `${command} ${args.join(' ')} in ${namespace}\nstdout:\n${lines.join('\n')}\nstderr:\n${stderr}`;

  const withDeadline = <T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} within ${timeoutMs} ms from ${transcript()}`)),
        timeoutMs,
      );
      work.then(resolve, reject).finally(() => clearTimeout(timer));
    });

  const waitForExit = (timeoutMs = STOP_TIMEOUT_MS) => withDeadline(exited, timeoutMs, 'exit');

  return {
    pid: child.pid ?? -1,
    waitForLine(match, timeoutMs = LINE_TIMEOUT_MS) {
      const matches = (line: string) =>
        typeof match === 'string' ? line.includes(match) : match.test(line);
      const seen = lines.find(matches);
      if (seen !== undefined) return Promise.resolve(seen);
      let waiter: ((line: string) => void) | undefined;
      const found = new Promise<string>((resolve, reject) => {
        waiter = (line) => {
          if (matches(line)) resolve(line);
        };
        lineWaiters.add(waiter);
        void exited.then((code) =>
          reject(new Error(`exited (${code}) before printing ${match}: ${transcript()}`)),
        );
      });
      return withDeadline(found, timeoutMs, `line matching ${match}`).finally(() => {
        if (waiter) lineWaiters.delete(waiter);
      });
    },
    waitForExit,
    transcript,
    async stop(signal = 'SIGTERM', timeoutMs = STOP_TIMEOUT_MS) {
      if (exitCode !== undefined) return exitCode;
      child.kill(signal);
      try {
        return await waitForExit(timeoutMs);
      } catch {
        child.kill('SIGKILL');
        return exited;
      }
    },
  };
}

function host(namespace: string, address: string, processes: NetnsProcess[]): NetnsHost {
  return {
    namespace,
    address,
    interfaceName: LINK_INTERFACE,
    run: (command, args = [], timeoutMs = COMMAND_TIMEOUT_MS) =>
      ip(['netns', 'exec', namespace, command, ...args], timeoutMs),
    spawn(command, args = []) {
      const started = startProcess(namespace, command, args);
      processes.push(started);
      return started;
    },
  };
}

let pairsCreated = 0;

/**
 * Two fresh network namespaces joined by a veth link with multicast on and no default route:
 * a two-device LAN from which nothing can leave. Stale namespaces of crashed runs are removed
 * first.
 */
export async function createNetnsPair(options: NetnsPairOptions = {}): Promise<NetnsPair> {
  await removeStaleNetns();
  installExitCleanup();
  pairsCreated += 1;
  const [addressA, addressB] = options.addresses ?? DEFAULT_ADDRESSES;
  const base = `${NETNS_PREFIX}${process.pid}-${pairsCreated}`;
  const names = [`${base}-a`, `${base}-b`] as const;
  const processes: NetnsProcess[] = [];

  const destroy = async () => {
    await Promise.all(processes.map((started) => started.stop('SIGKILL')));
    for (const namespace of names) {
      if (!live.has(namespace)) continue;
      // Grandchildren a program started on its own are not in `processes`.
      await killNamespaceProcesses(namespace);
      await ip(['netns', 'delete', namespace]);
      live.delete(namespace);
    }
  };

  try {
    for (const namespace of names) {
      await ipOrThrow(['netns', 'add', namespace]);
      live.add(namespace);
    }
    // Created straight inside the namespaces, so the same name serves both ends and never
    // clashes with the host's interfaces or another run's.
    const [end, peer] = names;
    const link = `link add ${LINK_INTERFACE} netns ${end} type veth peer name ${LINK_INTERFACE} netns ${peer}`;
    await ipOrThrow(link.split(' '));
    for (const [namespace, address] of [
      [names[0], addressA],
      [names[1], addressB],
    ] as const) {
      await ipOrThrow(
        `-n ${namespace} addr add ${address}/${PREFIX_LENGTH} dev ${LINK_INTERFACE}`.split(' '),
      );
      await ipOrThrow(['-n', namespace, 'link', 'set', LINK_INTERFACE, 'multicast', 'on', 'up']);
      await ipOrThrow(['-n', namespace, 'link', 'set', 'lo', 'up']);
    }
    for (const namespace of names) await waitForCarrier(namespace);
  } catch (error) {
    await destroy();
    throw error;
  }

  const blackholes = [
    [names[0], addressB],
    [names[1], addressA],
  ] as const;
  const cutRoute = async (): Promise<() => Promise<void>> => {
    for (const [namespace, other] of blackholes) {
      await ipOrThrow(['-n', namespace, 'route', 'add', 'blackhole', `${other}/32`]);
    }
    return async () => {
      for (const [namespace, other] of blackholes) {
        await ipOrThrow(['-n', namespace, 'route', 'del', 'blackhole', `${other}/32`]);
      }
    };
  };

  return {
    a: host(names[0], addressA, processes),
    b: host(names[1], addressB, processes),
    cutRoute,
    destroy,
  };
}
