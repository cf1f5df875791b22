import { rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { PeerReport } from './bench-messages';
import { startPeer, type PeerProcess } from './peer-process';

const MiB = 1024 * 1024;

/** One transfer between two processes: its speed and each side's peak memory. */
export interface RunFigures {
  mibPerSecond: number;
  seconds: number;
  /** Engine runs: whether the receiver verified every file end to end. */
  verified?: boolean;
  sender: ProcessFigures;
  receiver: ProcessFigures;
}

export interface ProcessFigures {
  peakRssMB: number;
  /** CPU time of the whole process (every thread), in seconds. */
  cpuSeconds: number;
}

/** What a resumed transfer moved, against what was missing at the receiver when it began. */
export interface ResumeFigures {
  /** The file's size. */
  bytes: number;
  /** The receiver cancelled with this much of the batch on its disk. */
  cutAtBytes: number;
  /** The kept `.part` before the second try. */
  keptPartBytes: number;
  /** bytes − keptPartBytes. */
  bytesMissing: number;
  /** What travelled on the second try: its receiver's `done` totalBytes. */
  bytesSentOnResume: number;
  /** What the second receiver reported it already had (whole blocks that checked out). */
  resumedBytes: number;
  /** bytesSentOnResume / bytesMissing: 1 is perfect, at most 1 + one 4 MiB block / missing. */
  ratio: number;
  /** The resumed file was verified end to end, its kept blocks included. */
  verified: boolean;
  /** The second try, from its channel opening until the file was committed. */
  seconds: number;
}

async function figures(
  sender: PeerProcess,
  receiver: PeerProcess,
  bytes: number,
): Promise<RunFigures> {
  const [open, received] = await Promise.all([sender.next('open'), receiver.next('received')]);
  const [senderEnd, receiverEnd] = await Promise.all([
    sender.next('finished'),
    receiver.next('finished'),
  ]);
  await Promise.all([sender.exited, receiver.exited]);
  const seconds = (received.at - open.at) / 1000;
  return {
    mibPerSecond: round(bytes / MiB / seconds),
    seconds: round(seconds),
    ...(received.verified === undefined ? {} : { verified: received.verified }),
    sender: processFigures(senderEnd),
    receiver: processFigures(receiverEnd),
  };
}

/** A bare node-datachannel channel between two processes, signaled through this one. */
export async function bareChannelRun(bytes: number): Promise<RunFigures> {
  const offerer = startPeer('bare-peer.ts', ['offerer', String(bytes)]);
  const answerer = startPeer('bare-peer.ts', ['answerer', String(bytes)]);
  const relay = (from: PeerProcess, to: PeerProcess) =>
    from.child.on('message', (message: { type: string; payload?: unknown }) => {
      if (message.type === 'signal') to.child.send(message.payload as object);
    });
  relay(offerer, answerer);
  relay(answerer, offerer);
  return figures(offerer, answerer, bytes);
}

export interface EngineRunOptions {
  /** Ferry's extensions (verification, resume); false speaks the spec's wire alone. */
  extensions: boolean;
}

/** Arguments for engine-peer.ts. */
function engineArgs(options: EngineRunOptions, ...args: string[]): string[] {
  return options.extensions ? args : [...args, '--no-extensions'];
}

/** The engine, native to native: `file` sent through the signaling server at `serverUrl`. */
export async function engineRun(
  serverUrl: string,
  file: string,
  bytes: number,
  scratch: string,
  options: EngineRunOptions,
): Promise<RunFigures> {
  const destination = join(scratch, `received-${Date.now()}`);
  const sender = startPeer('engine-peer.ts', engineArgs(options, 'send', serverUrl, file));
  const { code } = await sender.next('code');
  const receiver = startPeer(
    'engine-peer.ts',
    engineArgs(options, 'receive', serverUrl, code, destination),
  );
  try {
    return await figures(sender, receiver, bytes);
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
}

/**
 * Resume, native to native with verification: `file` is sent and its receiver cancels once
 * about half is on disk, keeping its `.part`; then the same file goes again into the same folder.
 */
export async function resumeRun(
  serverUrl: string,
  file: string,
  bytes: number,
  scratch: string,
): Promise<ResumeFigures> {
  const destination = join(scratch, `resumed-${Date.now()}`);
  try {
    const cutAtBytes = await cutRun(serverUrl, file, destination, Math.floor(bytes / 2));
    const keptPartBytes = (await stat(join(destination, `${basename(file)}.part`))).size;

    const sender = startPeer('engine-peer.ts', ['send', serverUrl, file]);
    const { code } = await sender.next('code');
    const receiver = startPeer('engine-peer.ts', ['receive', serverUrl, code, destination]);
    const [open, received] = await Promise.all([sender.next('open'), receiver.next('received')]);
    await Promise.all([sender.next('finished'), receiver.next('finished')]);
    await Promise.all([sender.exited, receiver.exited]);

    const bytesMissing = bytes - keptPartBytes;
    return {
      bytes,
      cutAtBytes,
      keptPartBytes,
      bytesMissing,
      bytesSentOnResume: received.bytes,
      resumedBytes: received.resumedBytes ?? 0,
      ratio: Math.round((received.bytes / bytesMissing) * 1000) / 1000,
      verified: received.verified === true,
      seconds: round((received.at - open.at) / 1000),
    };
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
}

/** A transfer whose receiver cancels at `cancelAt` bytes; resolves with where it stopped. */
async function cutRun(
  serverUrl: string,
  file: string,
  destination: string,
  cancelAt: number,
): Promise<number> {
  const sender = startPeer('engine-peer.ts', ['send', serverUrl, file, '--expect-cut']);
  const { code } = await sender.next('code');
  const receiver = startPeer('engine-peer.ts', [
    'receive',
    serverUrl,
    code,
    destination,
    `--cancel-at=${cancelAt}`,
  ]);
  const { bytesDone } = await receiver.next('cut');
  await Promise.all([sender.next('finished'), receiver.next('finished')]);
  await Promise.all([sender.exited, receiver.exited]);
  return bytesDone;
}

function processFigures(end: Extract<PeerReport, { type: 'finished' }>): ProcessFigures {
  return { peakRssMB: round(end.peakRssBytes / 1e6), cpuSeconds: round(end.cpuSeconds) };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
