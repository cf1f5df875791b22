import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PeerReport } from './bench-messages';
import { startPeer, type PeerProcess } from './peer-process';

const MiB = 1024 * 1024;

/** One transfer between two processes: its speed and each side's peak memory. */
export interface RunFigures {
  mibPerSecond: number;
  seconds: number;
  sender: ProcessFigures;
  receiver: ProcessFigures;
}

export interface ProcessFigures {
  peakRssMB: number;
  /** CPU time of the whole process (every thread), in seconds. */
  cpuSeconds: number;
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

/** The engine, native to native: `file` sent through the signaling server at `serverUrl`. */
export async function engineRun(
  serverUrl: string,
  file: string,
  bytes: number,
  scratch: string,
): Promise<RunFigures> {
  const destination = join(scratch, `received-${Date.now()}`);
  const sender = startPeer('engine-peer.ts', ['send', serverUrl, file]);
  const { code } = await sender.next('code');
  const receiver = startPeer('engine-peer.ts', ['receive', serverUrl, code, destination]);
  try {
    return await figures(sender, receiver, bytes);
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
}

function processFigures(end: Extract<PeerReport, { type: 'finished' }>): ProcessFigures {
  return { peakRssMB: round(end.peakRssBytes / 1e6), cpuSeconds: round(end.cpuSeconds) };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
