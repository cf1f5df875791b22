// `npm run bench:wan [-- --quick] [--budget 256MiB] [--seconds 4] [--reps 1] [--rate-mibps 0]`:
// kernel TCP cubic goodput over an emulated WAN link, RTT 0/20/50/100 ms × random loss 0/0.5 %
// each way. The link: two network namespaces, a TUN device in each, and bench/wan/delay-line.c
// (built here with gcc into a temporary folder) moving raw IP packets between them with a fixed
// one-way delay, loss and an optional rate cap, so the kernel's congestion control sees the real
// RTT. Before the matrix, the line at 0 ms is checked against the namespaces' direct veth link.
// Needs root. Prints one JSON line per cell, then a summary object. See bench/wan/README.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createNetnsPair, typeScriptArgs, type NetnsPair } from '../../e2e/support/netns';
import { parseSize } from '../transfer/parse-size';

/** The matrix; `--quick` keeps its corners. */
const RTTS_MS = [0, 20, 50, 100] as const;
const LOSSES_PCT = [0, 0.5] as const;
const QUICK_RTTS_MS = [0, 50] as const;
const QUICK_LOSSES_PCT = [0, 0.5] as const;
/** Per cell: the receiver stops at whichever comes first. */
const DEFAULT_BUDGET = '512MiB';
const DEFAULT_CELL_SECONDS = 4;
const DEFAULT_REPS = 1;
/** The delay line at 0 ms must reach this share of the direct veth path's TCP goodput. */
const LINE_CHECK_TOLERANCE = 0.8;
/** Addresses on the TUN link; the veth link from createNetnsPair uses 10.231.0.0/24. */
const LINE_ADDRESSES = ['10.232.0.1', '10.232.0.2'] as const;
const LINE_DEVICE = 'wan0';
const LINE_MTU = 1500;
/**
 * The TUN device's own queue, between the sender's stack and the delay line. At the default 500
 * a slow-start burst overflows it while the line is still reading, and TCP sees a loss the
 * emulated link never made.
 */
const LINE_TX_QUEUE_PACKETS = 10_000;
const CONGESTION_CONTROL = 'cubic';
/** min, default, max: the max raised to the namespaces' tcp_rmem max. */
const TCP_WMEM = '4096 16384 33554432';
const FIRST_PORT = 45_000;
const LOSS_PPM_PER_PCT = 10_000;
const US_PER_MS = 1000;
const MS_PER_S = 1000;
const MIB = 1024 * 1024;
const SEED = 18;
const READY_TIMEOUT_MS = 5_000;
/** Beyond the cell's own seconds: connection setup and the receiver's report. */
const CELL_MARGIN_MS = 10_000;
const STOP_TIMEOUT_MS = 3_000;
const EXIT_CODE_INTERRUPTED = 130;
/** USER_HZ, which /proc reports CPU times in: 100 on every Linux architecture the bench runs on. */
const CLOCK_TICKS_PER_S = 100;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    budget: { type: 'string', default: DEFAULT_BUDGET },
    seconds: { type: 'string', default: String(DEFAULT_CELL_SECONDS) },
    reps: { type: 'string', default: String(DEFAULT_REPS) },
    'rate-mibps': { type: 'string', default: '0' },
  },
});
const budget = parseSize(values.budget);
const cellSeconds = Number(values.seconds);
const reps = Math.max(1, Math.floor(Number(values.reps)));
const rateBytesPerS = Math.round(Number(values['rate-mibps']) * MIB);
const rtts = values.quick ? QUICK_RTTS_MS : RTTS_MS;
const losses = values.quick ? QUICK_LOSSES_PCT : LOSSES_PCT;

const here = fileURLToPath(new URL('.', import.meta.url));
const tcpPeer = join(here, 'tcp-peer.ts');

if (process.getuid?.() !== 0) {
  console.error('bench:wan needs root (network namespaces and TUN devices)');
  process.exit(1);
}

// Everything to undo, for a normal end and for Ctrl-C alike.
let scratch: string | undefined;
let pair: NetnsPair | undefined;
const lines = new Set<ChildProcess>();
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const line of lines) line.kill('SIGKILL');
    await pair?.destroy();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench:wan: ${signal}, cleaning up`);
    void cleanUp().finally(() => process.exit(EXIT_CODE_INTERRUPTED));
  });
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.error?.message}`);
  }
  return result.stdout;
}

function buildDelayLine(folder: string): string {
  const binary = join(folder, 'delay-line');
  run('gcc', ['-O2', '-Wall', '-o', binary, join(here, 'delay-line.c')]);
  return binary;
}

/** User plus system CPU time of a running process, from /proc/<pid>/stat. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

interface LineCounters {
  cpuCores?: number;
  type: 'counters';
  aToB: Record<string, number>;
  bToA: Record<string, number>;
}

interface DelayLine {
  stop(): Promise<LineCounters | undefined>;
}

/** Starts the delay line between the pair's namespaces and configures its two devices. */
async function startDelayLine(
  binary: string,
  netns: NetnsPair,
  oneWayDelayUs: number,
  lossPpm: number,
): Promise<DelayLine> {
  const child = spawn(
    binary,
    [
      `/run/netns/${netns.a.namespace}`,
      `/run/netns/${netns.b.namespace}`,
      LINE_DEVICE,
      String(oneWayDelayUs),
      String(lossPpm),
      String(rateBytesPerS),
      String(SEED),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  lines.add(child);
  const output: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output.push(line);
    waiters.forEach((wake) => wake());
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const waitFor = (match: string, timeoutMs: number) =>
    new Promise<string | undefined>((resolve) => {
      const check = () => {
        const found = output.find((line) => line.includes(match));
        if (found !== undefined) resolve(found);
      };
      waiters.add(check);
      check();
      void exited.then(() => setImmediate(() => resolve(output.find((l) => l.includes(match)))));
      setTimeout(() => resolve(undefined), timeoutMs).unref();
    });
  if ((await waitFor('ready', READY_TIMEOUT_MS)) === undefined) {
    child.kill('SIGKILL');
    throw new Error('delay-line did not start');
  }
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
      String(LINE_MTU),
      'txqueuelen',
      String(LINE_TX_QUEUE_PACKETS),
      'up',
    ]);
  }
  setCongestionControl(netns.a.namespace, LINE_ADDRESSES[1], LINE_DEVICE);
  const startedAt = performance.now();
  return {
    async stop() {
      const cpuShare = cpuSeconds(child.pid) / ((performance.now() - startedAt) / MS_PER_S);
      child.kill('SIGTERM');
      const counters = await waitFor('"counters"', STOP_TIMEOUT_MS);
      child.kill('SIGKILL');
      await exited;
      lines.delete(child);
      if (counters === undefined) return undefined;
      // The line's own CPU over its life, in cores: near 1 means it may be the bottleneck.
      return {
        ...(JSON.parse(counters) as LineCounters),
        cpuCores: Math.round(cpuShare * 100) / 100,
      };
    },
  };
}

interface TcpFigures {
  reason: string;
  bytes: number;
  ms: number;
  MiBps: number;
  secondHalfMiBps?: number;
}

let nextPort = FIRST_PORT;

/** One TCP transfer from namespace a to `address` in namespace b. */
async function measureTcp(netns: NetnsPair, address: string): Promise<TcpFigures> {
  const port = String(nextPort++);
  const receiver = netns.b.spawn(
    process.execPath,
    typeScriptArgs(tcpPeer, 'receive', address, port, String(budget), String(cellSeconds)),
  );
  await receiver.waitForLine('listening');
  const sender = netns.a.spawn(process.execPath, typeScriptArgs(tcpPeer, 'send', address, port));
  try {
    await sender.waitForLine('connected');
    const controller = await controllerInUse(netns, address);
    if (controller !== CONGESTION_CONTROL) {
      throw new Error(
        `the sender's connection uses ${controller ?? 'nothing'}, not ${CONGESTION_CONTROL}`,
      );
    }
    const line = await receiver.waitForLine(
      '"type":"tcp"',
      cellSeconds * MS_PER_S + CELL_MARGIN_MS,
    );
    return JSON.parse(line) as TcpFigures;
  } finally {
    await sender.stop();
    await receiver.stop();
  }
}

function setCongestionControl(namespace: string, to: string, device: string): void {
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

/** The controller the kernel reports for the sender's connection to `address` (`ss -ti`). */
async function controllerInUse(netns: NetnsPair, address: string): Promise<string | undefined> {
  const { stdout } = await netns.a.run('ss', ['-tin', 'dst', address]);
  return /\b(cubic|bbr|reno|htcp)\b/.exec(stdout)?.[1];
}

function setSysctl(netns: NetnsPair, settings: Record<string, string>): void {
  for (const namespace of [netns.a.namespace, netns.b.namespace]) {
    for (const [key, value] of Object.entries(settings)) {
      run('ip', ['netns', 'exec', namespace, 'sysctl', '-q', '-w', `${key}=${value}`]);
    }
  }
}

function readSysctl(netns: NetnsPair, key: string): string {
  return run('ip', ['netns', 'exec', netns.a.namespace, 'sysctl', '-n', key]).trim();
}

try {
  scratch = await mkdtemp(join(tmpdir(), 'ferry-bench-wan-'));
  const binary = buildDelayLine(scratch);
  pair = await createNetnsPair();
  // No ssthresh or RTT carried over from one cell's connection to the next.
  // A send buffer that never caps the window at 100 ms (the host's default max is 4 MiB).
  setSysctl(pair, { 'net.ipv4.tcp_no_metrics_save': '1', 'net.ipv4.tcp_wmem': TCP_WMEM });
  // A namespace may only pick a default controller from the host's allowed list (here
  // "reno bbr"), but a route may name any loaded one: the sender's route to the veth peer
  // says cubic; the TUN device's route gets it once the device exists.
  setCongestionControl(pair.a.namespace, pair.b.address, 'eth0');
  const kernel = {
    release: run('uname', ['-r']).trim(),
    tcpRmem: readSysctl(pair, 'net.ipv4.tcp_rmem'),
    tcpWmem: readSysctl(pair, 'net.ipv4.tcp_wmem'),
    namespaceDefaultCongestionControl: readSysctl(pair, 'net.ipv4.tcp_congestion_control'),
    routeCongestionControl: CONGESTION_CONTROL,
  };
  console.log(
    JSON.stringify({
      type: 'setup',
      budgetBytes: budget,
      cellSeconds,
      reps,
      rateCapMiBps: rateBytesPerS / MIB || null,
      kernel,
    }),
  );

  // The check: the line at 0 ms against the namespaces' direct veth link. A TUN device without
  // a virtio-net header moves one MTU-sized packet per read and write, so the fair comparison is
  // the veth link with segmentation offload cut to one segment (gso_max_segs 1); the veth link
  // with offload is printed beside it.
  const vethOffload: number[] = [];
  for (let rep = 0; rep < reps; rep += 1) {
    vethOffload.push((await measureTcp(pair, pair.b.address)).MiBps);
  }
  for (const namespace of [pair.a.namespace, pair.b.namespace]) {
    run('ip', [
      '-n',
      namespace,
      'link',
      'set',
      'eth0',
      'gso_max_segs',
      '1',
      'gso_max_size',
      String(LINE_MTU),
    ]);
  }
  const veth: number[] = [];
  const line0: number[] = [];
  for (let rep = 0; rep < reps; rep += 1) {
    veth.push((await measureTcp(pair, pair.b.address)).MiBps);
    const line = await startDelayLine(binary, pair, 0, 0);
    try {
      line0.push((await measureTcp(pair, LINE_ADDRESSES[1])).MiBps);
    } finally {
      await line.stop();
    }
  }
  const lineCheck = {
    vethWithOffloadTcpCubicMiBps: median(vethOffload),
    vethTcpCubicMiBps: median(veth),
    lineTcpCubicMiBps: median(line0),
    ratio: Math.round((median(line0) / median(veth)) * 100) / 100,
    tolerance: LINE_CHECK_TOLERANCE,
    pass: median(line0) >= LINE_CHECK_TOLERANCE * median(veth),
  };
  console.log(JSON.stringify({ type: 'lineCheck', ...lineCheck }));

  const cells = [];
  for (const rttMs of rtts) {
    for (const lossPct of losses) {
      const runs: TcpFigures[] = [];
      let counters: LineCounters | undefined;
      for (let rep = 0; rep < reps; rep += 1) {
        const line = await startDelayLine(
          binary,
          pair,
          (rttMs / 2) * US_PER_MS,
          lossPct * LOSS_PPM_PER_PCT,
        );
        try {
          runs.push(await measureTcp(pair, LINE_ADDRESSES[1]));
        } finally {
          counters = await line.stop();
        }
      }
      const cell = {
        type: 'cell',
        rttMs,
        lossPct,
        tcpCubicMiBps: median(runs.map((figures) => figures.MiBps)),
        tcpCubicSecondHalfMiBps: median(runs.map((figures) => figures.secondHalfMiBps ?? 0)),
        runs: runs.map(({ MiBps, bytes, ms, reason }) => ({ MiBps, bytes, ms, reason })),
        lastLine: counters,
      };
      cells.push(cell);
      console.log(JSON.stringify(cell));
    }
  }
  console.log(
    JSON.stringify({
      type: 'summary',
      cells: cells.map(({ rttMs, lossPct, tcpCubicMiBps, tcpCubicSecondHalfMiBps }) => ({
        rttMs,
        lossPct,
        tcpCubicMiBps,
        tcpCubicSecondHalfMiBps,
      })),
      lineCheck,
      notYetMeasured: ['ferryMiBps', 'bareMiBps', 'browser', 'cpuPerSide', 'tcpBbrMiBps'],
    }),
  );
} finally {
  await cleanUp();
}
