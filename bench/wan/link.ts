// The emulated WAN link of `npm run bench:wan`: the namespaces' settings, and delay-line.c
// (built here with gcc) moving raw IP packets between a TUN device in each namespace.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LINK_INTERFACE, type NetnsPair } from '../../e2e/support/netns';

/** Addresses on the TUN link; the veth link from createNetnsPair uses 10.231.0.0/24. */
export const LINE_ADDRESSES = ['10.232.0.1', '10.232.0.2'] as const;
const LINE_DEVICE = 'wan0';
export const LINE_MTU = 1500;
/**
 * The TUN device's own queue, between the sender's stack and the delay line. At the default 500
 * a slow-start burst overflows it while the line is still reading, and TCP sees a loss the
 * emulated link never made.
 */
const LINE_TX_QUEUE_PACKETS = 10_000;
export const CONGESTION_CONTROL = 'cubic';
const LOSS_PPM_PER_PCT = 10_000;
const US_PER_MS = 1000;
const MS_PER_S = 1000;
/** The loss pattern is seeded, so a cell can be repeated packet for packet. */
const SEED = 18;
const READY_TIMEOUT_MS = 5_000;
const COUNTERS_TIMEOUT_MS = 3_000;
/** USER_HZ, which /proc reports CPU times in: 100 on every Linux architecture the bench runs on. */
const CLOCK_TICKS_PER_S = 100;

const here = fileURLToPath(new URL('.', import.meta.url));

export function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.error?.message}`);
  }
  return result.stdout;
}

export function buildDelayLine(folder: string): string {
  const binary = join(folder, 'delay-line');
  run('gcc', ['-O2', '-Wall', '-o', binary, join(here, 'delay-line.c')]);
  return binary;
}

/** User plus system CPU time of a running process (all its threads), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

export interface DirectionCounters {
  packetsIn: number;
  bytesIn: number;
  packetsOut: number;
  bytesOut: number;
  lost: number;
  queueFull: number;
  writeErrors: number;
  maxQueued: number;
}

export interface LineCounters {
  type: 'counters';
  aToB: DirectionCounters;
  bToA: DirectionCounters;
  /** The line's own CPU over its life, in cores: near 1 means it may be the bottleneck. */
  cpuCores?: number;
}

export interface DelayLine {
  /** The counters so far (SIGUSR1); the line goes on. */
  counters(): Promise<LineCounters>;
  /** Ends the line; resolves with its final counters. */
  stop(): Promise<LineCounters | undefined>;
}

/** Processes of running lines, for the bench's cleanup on exit or Ctrl-C. */
export const runningLines = new Set<ChildProcess>();

/** A child's stdout as lines, with a wait for the first line matching after a given index. */
function lineReader(child: ChildProcess) {
  const output: string[] = [];
  const waiters = new Set<() => void>();
  let closed = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output.push(line);
    waiters.forEach((wake) => wake());
  });
  child.once('close', () => {
    closed = true;
    waiters.forEach((wake) => wake());
  });
  const waitFor = (match: string, from: number, timeoutMs: number) =>
    new Promise<string | undefined>((resolve) => {
      const check = () => {
        const found = output.slice(from).find((line) => line.includes(match));
        if (found !== undefined || closed) {
          waiters.delete(check);
          resolve(found);
        }
      };
      waiters.add(check);
      check();
      setTimeout(() => {
        waiters.delete(check);
        resolve(undefined);
      }, timeoutMs).unref();
    });
  return { waitFor, seen: () => output.length };
}

function configureEnds(netns: NetnsPair, mtu: number): void {
  const ends = [
    [netns.a.namespace, LINE_ADDRESSES[0], LINE_ADDRESSES[1]],
    [netns.b.namespace, LINE_ADDRESSES[1], LINE_ADDRESSES[0]],
  ] as const;
  for (const [namespace, local, remote] of ends) {
    run('ip', ['-n', namespace, 'addr', 'add', local, 'peer', remote, 'dev', LINE_DEVICE]);
    run('ip', [
      '-n',
      namespace,
      'link',
      'set',
      LINE_DEVICE,
      'mtu',
      String(mtu),
      'txqueuelen',
      String(LINE_TX_QUEUE_PACKETS),
      'up',
    ]);
  }
  setCongestionControl(netns.a.namespace, LINE_ADDRESSES[1], LINE_DEVICE);
}

export interface LineShape {
  rttMs: number;
  lossPct: number;
  rateBytesPerS: number;
  /** The two TUN devices' MTU, the path MTU every peer sees; LINE_MTU when not given. */
  mtu?: number;
}

/** Starts the delay line between the pair's namespaces and configures its two devices. */
export async function startDelayLine(
  binary: string,
  netns: NetnsPair,
  shape: LineShape,
): Promise<DelayLine> {
  const child = spawn(
    binary,
    [
      `/run/netns/${netns.a.namespace}`,
      `/run/netns/${netns.b.namespace}`,
      LINE_DEVICE,
      String(Math.round((shape.rttMs / 2) * US_PER_MS)),
      String(Math.round(shape.lossPct * LOSS_PPM_PER_PCT)),
      String(shape.rateBytesPerS),
      String(SEED),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  runningLines.add(child);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const reader = lineReader(child);
  if ((await reader.waitFor('ready', 0, READY_TIMEOUT_MS)) === undefined) {
    child.kill('SIGKILL');
    runningLines.delete(child);
    throw new Error('delay-line did not start');
  }
  configureEnds(netns, shape.mtu ?? LINE_MTU);
  const startedAt = performance.now();
  const readCounters = async (signal: NodeJS.Signals): Promise<LineCounters | undefined> => {
    const from = reader.seen();
    child.kill(signal);
    const line = await reader.waitFor('"counters"', from, COUNTERS_TIMEOUT_MS);
    return line === undefined ? undefined : (JSON.parse(line) as LineCounters);
  };
  return {
    async counters() {
      const counters = await readCounters('SIGUSR1');
      if (counters === undefined) throw new Error('delay-line gave no counters');
      return counters;
    },
    async stop() {
      const cpuShare = cpuSeconds(child.pid) / ((performance.now() - startedAt) / MS_PER_S);
      const counters = await readCounters('SIGTERM');
      child.kill('SIGKILL');
      await exited;
      runningLines.delete(child);
      if (counters === undefined) return undefined;
      return { ...counters, cpuCores: Math.round(cpuShare * 100) / 100 };
    },
  };
}

/** The data of a run did not cross the delay line: a broken bench, never a figure to report. */
export class LineBypassError extends Error {}

/**
 * Throws unless the line carried at least `bytes` in direction `way` between two snapshots:
 * what arrived must have crossed it, or the figure measured another path (the veth link).
 */
export function assertCarried(
  before: LineCounters,
  after: LineCounters,
  way: 'aToB' | 'bToA',
  bytes: number,
  what: string,
): number {
  const carried = after[way].bytesIn - before[way].bytesIn;
  if (carried < bytes) {
    throw new LineBypassError(
      `${what}: the delay line carried ${carried} bytes ${way} but ${bytes} arrived: ` +
        'the data took another path, so the figure does not measure the emulated link',
    );
  }
  return carried;
}

export function setCongestionControl(namespace: string, to: string, device: string): void {
  run('ip', [
    '-n',
    namespace,
    'route',
    'replace',
    `${to}/32`,
    'dev',
    device,
    'congctl',
    CONGESTION_CONTROL,
  ]);
}

export function setSysctl(netns: NetnsPair, settings: Record<string, string>): void {
  for (const namespace of [netns.a.namespace, netns.b.namespace]) {
    for (const [key, value] of Object.entries(settings)) {
      run('ip', ['netns', 'exec', namespace, 'sysctl', '-q', '-w', `${key}=${value}`]);
    }
  }
}

export function readSysctl(netns: NetnsPair, key: string): string {
  return run('ip', ['netns', 'exec', netns.a.namespace, 'sysctl', '-n', key]).trim();
}

/** Cuts segmentation offload on the veth link to one segment, as the TUN device moves them. */
export function limitVethToOneSegment(netns: NetnsPair): void {
  for (const namespace of [netns.a.namespace, netns.b.namespace]) {
    run('ip', [
      '-n',
      namespace,
      'link',
      'set',
      LINK_INTERFACE,
      'gso_max_segs',
      '1',
      'gso_max_size',
      String(LINE_MTU),
    ]);
  }
}

/**
 * Takes the veth link down in both namespaces: its host candidates would let ICE bypass the
 * delay line, so afterwards only 10.232.0.x (and loopback, which ICE leaves out) remains.
 */
export function takeVethDown(netns: NetnsPair): void {
  for (const namespace of [netns.a.namespace, netns.b.namespace]) {
    run('ip', ['-n', namespace, 'link', 'set', LINK_INTERFACE, 'down']);
  }
}
