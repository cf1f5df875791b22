// The measurements of one cell of `npm run bench:wan`, each from namespace a to namespace b over
// the delay line: kernel TCP cubic, a bare node-datachannel channel, and Ferry native → native.
// Each ends at the byte budget or after the cell's seconds, whichever comes first; goodput is the
// bytes received over the seconds since the connection (TCP) or data channel opened.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeScriptArgs, type NetnsHost, type NetnsPair } from '../../e2e/support/netns';
import type { PeerReport } from '../transfer/bench-messages';
import { startPeer, type PeerProcess } from '../transfer/peer-process';
import {
  assertCarried,
  CONGESTION_CONTROL,
  cpuSeconds,
  LINE_ADDRESSES,
  type DelayLine,
} from './link';

const MS_PER_S = 1000;
const MIB = 1024 * 1024;
const FIRST_PORT = 45_000;
/** Beyond the cell's own seconds: connection setup, teardown and the reports. */
const CELL_MARGIN_MS = 30_000;
/** A peer still running this long after its run ended is killed. */
const EXIT_TIMEOUT_MS = 10_000;

const tcpPeer = fileURLToPath(new URL('tcp-peer.ts', import.meta.url));

/** What every run of a cell shares. */
export interface CellSetup {
  netns: NetnsPair;
  line: DelayLine;
  budget: number;
  seconds: number;
}

export interface TcpFigures {
  reason: string;
  bytes: number;
  ms: number;
  MiBps: number;
  secondHalfMiBps?: number;
}

/** A side's CPU over the measured window, in cores, and its peak resident memory. */
export interface SideFigures {
  cores: number;
  peakRssMB: number;
}

export interface ChannelFigures {
  MiBps: number;
  bytes: number;
  seconds: number;
  sender: SideFigures;
  receiver: SideFigures;
  /** What the line carried a → b during the run; at least `bytes`, or the run throws. */
  lineBytes: number;
  /**
   * Datagrams the receiving namespace's kernel dropped because a UDP socket's receive buffer was
   * full (RcvbufErrors in /proc/net/snmp): SCTP takes each for congestion.
   */
  receiverUdpDrops: number;
  /**
   * Datagrams the sending namespace's kernel refused (SndbufErrors): a full socket send buffer or
   * device queue, so a drop before the line.
   */
  senderUdpDrops: number;
  /** Wall-clock ms of the start report and of the receiver's count: the goodput's window. */
  window: { from: number; to: number };
}

/** Where a Ferry run's window went: what the goodput alone does not tell. */
export interface FerryTimeline {
  /**
   * From the sender's connection to the receiver's first file data: the offer, its acceptance,
   * the lanes' handshakes and their first round trips.
   */
  setupSeconds: number;
  /**
   * Goodput over the second half of the receiver's time limit alone, past the setup and slow
   * start; null when the file arrived whole before the halfway mark.
   */
  secondHalfMiBps: number | null;
}

/**
 * The counters of /proc/net/snmp that say where the kernel dropped a datagram: at a full receive
 * buffer (RcvbufErrors), or at a full send buffer or device queue (SndbufErrors).
 */
export type UdpDropCounter = 'RcvbufErrors' | 'SndbufErrors';

/** One counter of the `Udp:` lines of /proc/net/snmp (a line of names, one of values); 0 if absent. */
export function udpCounter(snmp: string, name: UdpDropCounter): number {
  const [names, values] = snmp.split('\n').filter((line) => line.startsWith('Udp:'));
  const index = names?.split(' ').indexOf(name) ?? -1;
  return index < 0 ? 0 : Number(values?.split(' ')[index] ?? 0);
}

/** The namespace's UDP drop counters. */
export async function udpDrops(netns: NetnsHost): Promise<Record<UdpDropCounter, number>> {
  const { stdout } = await netns.run('cat', ['/proc/net/snmp']);
  return {
    RcvbufErrors: udpCounter(stdout, 'RcvbufErrors'),
    SndbufErrors: udpCounter(stdout, 'SndbufErrors'),
  };
}

let nextPort = FIRST_PORT;

function round(value: number, places = 2): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

/** One TCP transfer from namespace a to `address` in namespace b. */
export async function measureTcp(
  netns: NetnsPair,
  address: string,
  budget: number,
  seconds: number,
): Promise<TcpFigures> {
  const port = String(nextPort++);
  const receiver = netns.b.spawn(
    process.execPath,
    typeScriptArgs(tcpPeer, 'receive', address, port, String(budget), String(seconds)),
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
    const line = await receiver.waitForLine('"type":"tcp"', seconds * MS_PER_S + CELL_MARGIN_MS);
    return JSON.parse(line) as TcpFigures;
  } finally {
    await sender.stop();
    await receiver.stop();
  }
}

/** The controller the kernel reports for the sender's connection to `address` (`ss -ti`). */
async function controllerInUse(netns: NetnsPair, address: string): Promise<string | undefined> {
  const { stdout } = await netns.a.run('ss', ['-tin', 'dst', address]);
  return /\b(cubic|bbr|reno|htcp)\b/.exec(stdout)?.[1];
}

/** A report together with the CPU time both peers had used when the bench got it. */
interface Stamped<T> {
  report: T;
  senderCpu: number;
  receiverCpu: number;
}

function stamp<T>(
  waiting: Promise<T>,
  sender: PeerProcess,
  receiver: PeerProcess,
): Promise<Stamped<T>> {
  return waiting.then((report) => ({
    report,
    senderCpu: cpuSeconds(sender.child.pid),
    receiverCpu: cpuSeconds(receiver.child.pid),
  }));
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** Waits for both peers to exit; kills whichever outlives the deadline. */
async function ended(peers: PeerProcess[]): Promise<void> {
  await Promise.all(
    peers.map(async (peer) => {
      const timer = setTimeout(() => peer.child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
      await peer.exited;
      clearTimeout(timer);
    }),
  );
}

type Finished = Extract<PeerReport, { type: 'finished' }>;

/**
 * The figures of one channel run: from `start` (the channel open, or the first file data) to the
 * receiver's `received`, CPU sampled from /proc at both moments (so each process's start-up does
 * not count), peak memory from the peers' last words.
 */
async function channelFigures(
  setup: CellSetup,
  sender: PeerProcess,
  receiver: PeerProcess,
  startReport: 'open' | 'transferring',
  what: string,
): Promise<ChannelFigures> {
  const before = await setup.line.counters();
  const [senderDropsBefore, receiverDropsBefore] = await Promise.all([
    udpDrops(setup.netns.a),
    udpDrops(setup.netns.b),
  ]);
  const start = stamp(sender.next(startReport), sender, receiver);
  const received = stamp(receiver.next('received'), sender, receiver);
  const deadline = setup.seconds * MS_PER_S + CELL_MARGIN_MS;
  const [opened, arrived] = await withDeadline(Promise.all([start, received]), deadline, what);
  const [senderEnd, receiverEnd]: Finished[] = await withDeadline(
    Promise.all([sender.next('finished'), receiver.next('finished')]),
    EXIT_TIMEOUT_MS,
    `${what} (finishing)`,
  );
  await ended([sender, receiver]);
  const after = await setup.line.counters();
  const [senderDrops, receiverDrops] = await Promise.all([
    udpDrops(setup.netns.a),
    udpDrops(setup.netns.b),
  ]);
  const bytes = arrived.report.bytes;
  const lineBytes = assertCarried(before, after, 'aToB', bytes, what);
  const seconds = (arrived.report.at - opened.report.at) / MS_PER_S;
  const side = (cpu: number, end: Finished): SideFigures => ({
    cores: round(cpu / seconds),
    peakRssMB: round(end.peakRssBytes / 1e6, 1),
  });
  return {
    MiBps: round(bytes / MIB / seconds),
    bytes,
    seconds: round(seconds, 3),
    sender: side(arrived.senderCpu - opened.senderCpu, senderEnd),
    receiver: side(arrived.receiverCpu - opened.receiverCpu, receiverEnd),
    lineBytes,
    receiverUdpDrops: receiverDrops.RcvbufErrors - receiverDropsBefore.RcvbufErrors,
    senderUdpDrops: senderDrops.SndbufErrors - senderDropsBefore.SndbufErrors,
    window: { from: opened.report.at, to: arrived.report.at },
  };
}

/** Kills both peers when a run throws, so the next run starts clean. */
async function guarded<T>(peers: PeerProcess[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    for (const peer of peers) peer.child.kill('SIGKILL');
    await Promise.all(peers.map((peer) => peer.exited));
    throw error;
  }
}

export interface BareKnobs {
  sctp?: string;
  mtu?: number;
  connections?: number;
}

function bareKnobArgs(knobs: BareKnobs): string[] {
  return [
    ...(knobs.sctp === undefined ? [] : [`--sctp=${knobs.sctp}`]),
    ...(knobs.mtu === undefined ? [] : [`--mtu=${knobs.mtu}`]),
    ...(knobs.connections === undefined ? [] : [`--connections=${knobs.connections}`]),
  ];
}

/** A bare node-datachannel channel, offerer in a, answerer in b, signaled through the bench. */
export async function measureBare(setup: CellSetup, knobs: BareKnobs): Promise<ChannelFigures> {
  const knobArgs = bareKnobArgs(knobs);
  const offerer = startPeer('bare-peer.ts', ['offerer', String(setup.budget), ...knobArgs], {
    namespace: setup.netns.a.namespace,
  });
  const answerer = startPeer(
    'bare-peer.ts',
    ['answerer', String(setup.budget), `--seconds=${setup.seconds}`, ...knobArgs],
    { namespace: setup.netns.b.namespace },
  );
  const relay = (from: PeerProcess, to: PeerProcess) =>
    from.child.on('message', (message: PeerReport) => {
      if (message.type === 'signal') to.child.send(message.payload as object);
    });
  relay(offerer, answerer);
  relay(answerer, offerer);
  return guarded([offerer, answerer], () =>
    channelFigures(setup, offerer, answerer, 'open', 'bare channel'),
  );
}

export interface FerryKnobs {
  sctp?: string;
  lanes?: number;
}

export function ferryKnobArgs(knobs: FerryKnobs): string[] {
  return [
    ...(knobs.sctp === undefined ? [] : [`--sctp=${knobs.sctp}`]),
    ...(knobs.lanes === undefined ? [] : [`--lanes=${knobs.lanes}`]),
  ];
}

export interface FerryFiles {
  /** The signaling server, reached over the line: http://10.232.0.2:<port>. */
  serverUrl: string;
  /** The payload, the budget's size. */
  file: string;
  /** Where each run's fresh destination folder goes. */
  scratch: string;
}

/**
 * A Ferry run's timeline from its window, the receiver's first file data and, when the run lasted
 * that long, its count halfway through its time limit.
 */
export function ferryTimelineOf(
  figures: Pick<ChannelFigures, 'bytes' | 'window'>,
  firstDataAt: number,
  midway: { at: number; bytes: number } | undefined,
): FerryTimeline {
  const { from, to } = figures.window;
  const secondHalf =
    midway === undefined || to <= midway.at
      ? null
      : round((figures.bytes - midway.bytes) / MIB / ((to - midway.at) / MS_PER_S));
  return { setupSeconds: round((firstDataAt - from) / MS_PER_S, 3), secondHalfMiBps: secondHalf };
}

/** The timeline of a finished run, from the reports its receiver left (kept after it exited). */
async function ferryTimeline(
  figures: ChannelFigures,
  receiver: PeerProcess,
): Promise<FerryTimeline> {
  const firstData = await receiver.next('transferring');
  const midway = await receiver.next('midway').catch(() => undefined);
  return ferryTimelineOf(figures, firstData.at, midway);
}

/** Ferry native → native: sender in a with `file`, receiver in b into a fresh folder. */
export async function measureFerry(
  setup: CellSetup,
  files: FerryFiles,
  knobs: FerryKnobs,
  what = 'ferry',
): Promise<ChannelFigures & FerryTimeline> {
  const destination = await mkdtemp(join(files.scratch, 'received-'));
  const knobArgs = ferryKnobArgs(knobs);
  const sender = startPeer(
    'engine-peer.ts',
    ['send', files.serverUrl, files.file, '--expect-cut', ...knobArgs],
    { namespace: setup.netns.a.namespace },
  );
  try {
    const { code } = await guarded([sender], () =>
      withDeadline(sender.next('code'), CELL_MARGIN_MS, `${what} (code)`),
    );
    const receiver = startPeer(
      'engine-peer.ts',
      [
        'receive',
        files.serverUrl,
        code,
        destination,
        `--stop-after-seconds=${setup.seconds}`,
        ...knobArgs,
      ],
      { namespace: setup.netns.b.namespace },
    );
    const figures = await guarded([sender, receiver], () =>
      channelFigures(setup, sender, receiver, 'open', what),
    );
    return { ...figures, ...(await ferryTimeline(figures, receiver)) };
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
}

/** The address of namespace b's end of the line, where every measurement goes. */
export const LINE_FAR_END = LINE_ADDRESSES[1];
