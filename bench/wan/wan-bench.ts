// `npm run bench:wan [-- --quick] [--budget 512MiB] [--seconds 4] [--reps 3] [--rate-mibps 0]
// [--rtts 0,50] [--losses 0] [--only tcp,bare,ferry,defaults,browser] [--sctp '<json>']
// [--lanes N] [--mtu N] [--bare-connections N] [--line-mtu N]`: goodput over an emulated WAN
// link, RTT 0/20/50/100 ms × random loss 0/0.5 % each way, of kernel TCP cubic, a bare
// node-datachannel channel, Ferry native → native (files on disk, the real engine) and Ferry with
// today's defaults; then the web client in Chromium to and from the native engine at 50 ms. The
// link: two network namespaces, a TUN device in each, and bench/wan/delay-line.c moving raw IP
// packets between them with a fixed one-way delay, loss and an optional rate cap, so every
// congestion controller sees the real RTT. Before the matrix, the line at 0 ms is checked against
// the namespaces' direct veth link, which is then taken down so only the line can carry data.
// Needs root. Prints one JSON line per cell, then a summary object as the last line. See
// bench/wan/README.md.
import { cpus, release, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createNetnsPair, type NetnsPair } from '../../e2e/support/netns';
import { findChromium } from '../../e2e/support/chromium';
import { ensureRendererBuilt } from '../../e2e/support/web-client/renderer-build';
import { writePayload } from '../transfer/payload-file';
import { measureBrowserCells, type BrowserCell } from './browser-cells';
import {
  LINE_FAR_END,
  measureBare,
  measureFerry,
  measureTcp,
  type CellSetup,
  type ChannelFigures,
  type FerryFiles,
  type FerryKnobs,
  type TcpFigures,
} from './cells';
import { checkLine, type LineCheck } from './line-check';
import {
  buildDelayLine,
  CONGESTION_CONTROL,
  LineBypassError,
  readSysctl,
  run,
  runningLines,
  setCongestionControl,
  setSysctl,
  startDelayLine,
  takeVethDown,
} from './link';
import { parseWanOptions, type Measurement } from './options';
import {
  checkTargets,
  describeTargets,
  emptyCellRuns,
  median,
  summarizeCell,
  type CellRuns,
  type Measured,
} from './summary';
import { startWanWebHost } from './web-host';
import { errorMessage } from '../../src-shared/format/error-message';

/**
 * tcp_wmem (min, default, max) of the large-buffer TCP runs: the max raised to the namespaces'
 * tcp_rmem max, so that the send buffer never caps the window at 100 ms. The issue's own TCP runs
 * keep the machine's setting (4 MiB here), as croc or scp would (docs/performance.md, "Which TCP").
 */
const LARGE_TCP_WMEM = '4096 16384 33554432';
const TCP_WMEM = 'net.ipv4.tcp_wmem';
const MS_PER_S = 1000;
const MIB = 1024 * 1024;
const EXIT_CODE_INTERRUPTED = 130;
/** libdatachannel's own SCTP settings and the spec's single channel: Ferry as it is today. */
const DEFAULTS_SCTP = '{}';
const DEFAULTS_LANES = 1;
/**
 * Every connection is closed by the end, yet node-datachannel's native side or Playwright may
 * keep the event loop alive; as bench:transfer does, give it a moment and then end.
 */
const EXIT_GUARD_MS = 5_000;

const startedAt = performance.now();
const options = parseWanOptions(process.argv.slice(2));

if (process.getuid?.() !== 0) {
  console.error('bench:wan needs root (network namespaces and TUN devices)');
  process.exit(1);
}

// Everything to undo, for a normal end and for Ctrl-C alike.
let scratch: string | undefined;
let pair: NetnsPair | undefined;
/** The namespaces' own tcp_wmem, read before the bench changes it. */
let machineTcpWmem = '';
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const line of runningLines) line.kill('SIGKILL');
    // Every process inside the namespaces goes with them: peers, the web host, Chromium.
    await pair?.destroy();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  })();
  return cleaning;
}
// `on`, not `once`: Ctrl-C reaches the whole process group and tsx relays it as well, so a second
// signal would otherwise end the process halfway through its cleanup.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`bench:wan: ${signal}, cleaning up`);
    void cleanUp().finally(() => process.exit(EXIT_CODE_INTERRUPTED));
  });
}

function wants(...names: Measurement[]): boolean {
  return names.some((name) => options.only.has(name));
}

function message(error: unknown): string {
  return errorMessage(error);
}

/** The tuning knobs of the measured Ferry runs: only those given on the command line. */
function ferryKnobs(): FerryKnobs {
  return {
    ...(options.sctp === undefined ? {} : { sctp: options.sctp }),
    ...(options.lanes === undefined ? {} : { lanes: options.lanes }),
  };
}

/** Runs one measurement of a cell; a failure is kept as the cell's error, unless the line was bypassed. */
async function attempt<T>(
  runs: CellRuns,
  what: Measured,
  list: T[],
  measure: () => Promise<T>,
): Promise<void> {
  if (!options.only.has(what)) return;
  try {
    list.push(await measure());
  } catch (error) {
    if (error instanceof LineBypassError) throw error;
    runs.errors.push({ what, message: message(error) });
    console.error(`bench:wan: ${what} at ${runs.rttMs} ms/${runs.lossPct} %: ${message(error)}`);
  }
}

/** One cell: reps × (tcp, bare, ferry, defaults) on one delay line. */
async function measureCell(
  netns: NetnsPair,
  binary: string,
  rttMs: number,
  lossPct: number,
  files: FerryFiles | undefined,
): Promise<CellRuns> {
  const runs = emptyCellRuns(rttMs, lossPct);
  const line = await startDelayLine(binary, netns, {
    rttMs,
    lossPct,
    rateBytesPerS: options.rateBytesPerS,
    ...(options.lineMtu === undefined ? {} : { mtu: options.lineMtu }),
  });
  const setup: CellSetup = { netns, line, budget: options.budget, seconds: options.cellSeconds };
  const knobs = ferryKnobs();
  try {
    for (let rep = 0; rep < options.reps; rep += 1) {
      for (const [wmem, list] of [
        [machineTcpWmem, runs.tcp],
        [LARGE_TCP_WMEM, runs.tcpLargeBuffers],
      ] as const) {
        await attempt(runs, 'tcp', list, () => {
          setSysctl(netns, { [TCP_WMEM]: wmem });
          return measureTcp(netns, LINE_FAR_END, options.budget, options.cellSeconds);
        });
      }
      await attempt(runs, 'bare', runs.bare, () =>
        measureBare(setup, {
          sctp: options.sctp,
          mtu: options.mtu,
          connections: options.bareConnections,
        }),
      );
      if (files === undefined) continue;
      await attempt(runs, 'ferry', runs.ferry, () => measureFerry(setup, files, knobs));
      await attempt(runs, 'defaults', runs.defaults, () =>
        measureFerry(setup, files, { sctp: DEFAULTS_SCTP, lanes: DEFAULTS_LANES }, 'defaults'),
      );
    }
  } finally {
    runs.line = await line.stop();
  }
  return runs;
}

/** The cell's JSON line: medians, and every run's own figures. */
function cellLine(runs: CellRuns): Record<string, unknown> {
  const tcpRun = ({ MiBps, bytes, ms, reason }: TcpFigures) => ({ MiBps, bytes, ms, reason });
  const secondHalf = (list: readonly TcpFigures[]) =>
    list.length > 0 ? median(list.map((figures) => figures.secondHalfMiBps ?? 0)) : null;
  const channelRun = (run: ChannelFigures) => {
    const { MiBps, bytes, seconds, sender, receiver, receiverUdpDrops, senderUdpDrops } = run;
    return { MiBps, receiverUdpDrops, senderUdpDrops, bytes, seconds, sender, receiver };
  };
  const ferryRun = (run: CellRuns['ferry'][number]) => ({
    ...channelRun(run),
    setupSeconds: run.setupSeconds,
    secondHalfMiBps: run.secondHalfMiBps,
  });
  return {
    type: 'cell',
    ...summarizeCell(runs),
    tcpCubicSecondHalfMiBps: secondHalf(runs.tcp),
    tcpCubicLargeBuffersSecondHalfMiBps: secondHalf(runs.tcpLargeBuffers),
    runs: {
      tcp: runs.tcp.map(tcpRun),
      tcpLargeBuffers: runs.tcpLargeBuffers.map(tcpRun),
      bare: runs.bare.map(channelRun),
      ferry: runs.ferry.map(ferryRun),
      defaults: runs.defaults.map(ferryRun),
    },
    ...(runs.errors.length > 0 ? { errors: runs.errors } : {}),
    lastLine: runs.line,
  };
}

function kernelFigures(netns: NetnsPair) {
  return {
    release: run('uname', ['-r']).trim(),
    tcpRmem: readSysctl(netns, 'net.ipv4.tcp_rmem'),
    tcpWmem: machineTcpWmem,
    tcpWmemLargeBuffers: LARGE_TCP_WMEM,
    namespaceDefaultCongestionControl: readSysctl(netns, 'net.ipv4.tcp_congestion_control'),
    routeCongestionControl: CONGESTION_CONTROL,
  };
}

/** The web host in b and the payload, when a Ferry measurement runs. */
async function prepareFerry(
  netns: NetnsPair,
  folder: string,
): Promise<{ files?: FerryFiles; webUrl?: string }> {
  if (!wants('ferry', 'defaults', 'browser')) return {};
  // The page is served only for the browser cells; a stale build is rebuilt for them.
  if (wants('browser') && findChromium() !== undefined) ensureRendererBuilt();
  const host = await startWanWebHost(netns);
  if (!wants('ferry', 'defaults')) return { webUrl: host.url };
  const file = join(folder, 'payload.bin');
  await writePayload(file, options.budget);
  return { files: { serverUrl: host.url, file, scratch: folder }, webUrl: host.url };
}

try {
  scratch = await mkdtemp(join(tmpdir(), 'ferry-bench-wan-'));
  const binary = buildDelayLine(scratch);
  pair = await createNetnsPair();
  machineTcpWmem = readSysctl(pair, TCP_WMEM);
  // No ssthresh or RTT carried over from one cell's connection to the next. The line check
  // compares the line with the veth link at TCP's best.
  setSysctl(pair, { 'net.ipv4.tcp_no_metrics_save': '1', [TCP_WMEM]: LARGE_TCP_WMEM });
  // A namespace may only pick a default controller from the host's allowed list (here
  // "reno bbr"), but a route may name any loaded one: the sender's route to the veth peer
  // says cubic; the TUN device's route gets it once the device exists.
  setCongestionControl(pair.a.namespace, pair.b.address, 'eth0');
  const kernel = kernelFigures(pair);
  console.log(
    JSON.stringify({
      type: 'setup',
      budgetBytes: options.budget,
      cellSeconds: options.cellSeconds,
      reps: options.reps,
      only: [...options.only],
      knobs: {
        sctp: options.sctp ?? null,
        lanes: options.lanes ?? null,
        mtu: options.mtu ?? null,
        bareConnections: options.bareConnections ?? null,
        lineMtu: options.lineMtu ?? null,
      },
      rateCapMiBps: options.rateBytesPerS / MIB || null,
      kernel,
    }),
  );

  // The line check needs the veth link, and TCP: it runs with the TCP measurements.
  let lineCheck: LineCheck | { skipped: string } = { skipped: '--only without tcp' };
  if (wants('tcp')) {
    lineCheck = await checkLine({
      netns: pair,
      lineBinary: binary,
      budget: options.budget,
      seconds: options.cellSeconds,
      reps: options.reps,
      rateBytesPerS: options.rateBytesPerS,
    });
  }
  console.log(JSON.stringify({ type: 'lineCheck', ...lineCheck }));
  // From here on ICE can find only the line's addresses: the veth link's would bypass it.
  takeVethDown(pair);

  const { files, webUrl } = await prepareFerry(pair, scratch);
  const cells = [];
  const cellRtts = wants('tcp', 'bare', 'ferry', 'defaults') ? options.rtts : [];
  for (const rttMs of cellRtts) {
    for (const lossPct of options.losses) {
      const runs = await measureCell(pair, binary, rttMs, lossPct, files);
      console.log(JSON.stringify(cellLine(runs)));
      cells.push(summarizeCell(runs));
    }
  }

  let browser: BrowserCell[] = [];
  if (wants('browser') && webUrl !== undefined) {
    browser = await measureBrowserCells({
      netns: pair,
      lineBinary: binary,
      rateBytesPerS: options.rateBytesPerS,
      webUrl,
      scratch,
      knobs: ferryKnobs(),
      reps: options.reps,
      seconds: options.cellSeconds,
      median,
    });
    for (const cell of browser) console.log(JSON.stringify({ type: 'browserCell', ...cell }));
  }

  const targets = checkTargets(cells);
  for (const line of describeTargets(targets)) console.error(`bench:wan: ${line}`);
  const [cpu] = cpus();
  console.log(
    JSON.stringify({
      type: 'summary',
      machine: { cpus: cpus().length, model: cpu?.model ?? 'unknown', kernel: release() },
      lineCheck,
      cells,
      targets,
      browser: browser.map(({ direction, rttMs, lossPct, ferryMiBps }) => ({
        direction,
        rttMs,
        lossPct,
        ferryMiBps,
      })),
      totalSeconds: Math.round((performance.now() - startedAt) / MS_PER_S),
    }),
  );
} finally {
  await cleanUp();
  setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_GUARD_MS).unref();
}
