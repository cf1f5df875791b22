// `npm run bench:setup-race [-- --setups N]`: N connection setups (200 by default) in which the
// other side offers the very instant `user-connected` arrives (the strict spec-only peer in
// test-peers/spec-peer.ts) and Ferry's engine receives. Before the signal inbox a signal sent
// that early could be lost between joining and negotiating; this loop counts such losses.
// Prints JSON: setups, completed, failed (with each failure), the signals sent and received in
// each failed setup, signals lost, and the time taken; exits 1 when any signal was lost. A script, not a
// timed test: it asserts nothing about speed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { receiveFiles } from '../src-main/engine';
import { startSignalingServer } from '../src-main/signaling-server';
import { specSend } from '../test-peers/spec-peer';

const DEFAULT_SETUPS = 200;
// Every setup opens two sockets and makes two code requests from one address.
const GENEROUS_LIMIT = 1_000_000;
/** A setup still unfinished after this long counts as a failure, with where each side stood. */
const SETUP_DEADLINE_MS = 60_000;

const { values } = parseArgs({ options: { setups: { type: 'string' } } });
const setups = Number(values.setups ?? DEFAULT_SETUPS);
if (!Number.isSafeInteger(setups) || setups < 1) throw new Error('--setups takes a positive count');

const server = await startSignalingServer({
  host: '127.0.0.1',
  port: 0,
  log: { info: () => undefined, error: () => undefined },
  maxConnectionsPerIp: GENEROUS_LIMIT,
  maxCodeRequestsPerIp: GENEROUS_LIMIT,
});
const scratch = await mkdtemp(join(tmpdir(), 'ferry-setup-race-'));
const failures: { setup: number; side: string; message: string }[] = [];
const failedSetups: { setup: number; signalsOut: number; signalsIn: number }[] = [];
const started = performance.now();
let completed = 0;
try {
  for (let setup = 1; setup <= setups; setup += 1) {
    const destination = join(scratch, String(setup));
    let receiving: Promise<string> | undefined;
    let transfer: ReturnType<typeof receiveFiles> | undefined;
    const log: string[] = [];
    let signalsIn = 0;
    const sending = specSend({
      serverUrl: server.url,
      log,
      files: [{ name: 'one.txt', bytes: new TextEncoder().encode(`setup ${setup}`) }],
      onCode: (code) => {
        transfer = receiveFiles({
          // The engine's test seam, here only to count what arrives; it lets everything pass.
          signalFilter: (_payload, direction) => {
            if (direction === 'in') signalsIn += 1;
            return true;
          },
          serverUrl: server.url,
          code,
          destination,
          remedySurface: 'cli',
          reportBytes: false,
        });
        receiving = transfer.finished.then((final) =>
          final.phase === 'done' ? 'done' : `${final.code}: ${final.message}`,
        );
      },
    }).then(
      () => 'done',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('unfinished'), SETUP_DEADLINE_MS);
    });
    const sent = await Promise.race([sending, deadline]);
    const received = await Promise.race([receiving ?? Promise.resolve('never started'), deadline]);
    clearTimeout(timer);
    if (sent === 'unfinished' || received === 'unfinished') {
      const stood = `spec peer: ${log.join(' > ')}; Ferry: ${JSON.stringify(transfer?.state)}`;
      failures.push({ setup, side: 'both', message: `unfinished after 60 s (${stood})` });
      transfer?.cancel();
      continue;
    }
    if (sent === 'done' && received === 'done') completed += 1;
    else {
      // A failed setup keeps both in the room to the end, so every signal sent should be in.
      const signalsOut = log.filter((step) => step === 'signal out').length;
      failedSetups.push({ setup, signalsOut, signalsIn });
    }
    if (sent !== 'done') failures.push({ setup, side: 'spec sender', message: sent });
    if (received !== 'done') failures.push({ setup, side: 'Ferry receiver', message: received });
    await rm(destination, { recursive: true, force: true });
  }
} finally {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}
const signalsLost = failedSetups.reduce(
  (sum, s) => sum + Math.max(0, s.signalsOut - s.signalsIn),
  0,
);
console.log(
  JSON.stringify(
    {
      setups,
      completed,
      failed: setups - completed,
      failures,
      // Per failed setup: signals the offering side sent and the receiving side got.
      failedSetups,
      signalsLost,
      ms: Math.round(performance.now() - started),
    },
    null,
    2,
  ),
);
// A setup the network stack could not complete is reported; a lost signal is a failure.
process.exit(signalsLost === 0 ? 0 : 1);
