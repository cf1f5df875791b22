// `npm run bench:setup-race [-- --setups N]` (or SETUPS=N): N connection setups, 200 by
// default, each against a private signaling server, in which the sender is the strict spec-only
// peer of test-peers/spec-peer/ (it offers in the same turn as `user-connected` arrives and fails
// the attempt if the receiver leaves the room before its channel is open) and Ferry's engine
// receives a one-line file through its public entry. Counts the setups that lost a signal or
// failed and prints JSON: setups, completed, failed, failures (each side's own words), signals
// (what the spec peer sent and Ferry took in, per failed setup) and ms. A script, not a timed
// test: it asserts nothing about speed, and exits 1 when any setup failed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { receiveFiles } from '../src-main/engine';
import { startSignalingServer } from '../src-main/signaling-server';
import { SpecPeerError, specSend } from '../test-peers/spec-peer/index';
import { errorMessage } from '../src-shared/format/error-message';

const DEFAULT_SETUPS = 200;
/** Every setup opens two sockets and makes two code requests from this one address. */
const GENEROUS_LIMIT = 1_000_000;
/** A setup still unfinished after this long counts as failed (both sides' own limits are 30 s). */
const SETUP_DEADLINE_MS = 60_000;

interface Failure {
  setup: number;
  side: 'spec sender' | 'Ferry receiver' | 'both';
  message: string;
}

interface SignalCount {
  setup: number;
  /** Offer and candidates the spec peer sent. */
  sent: number;
  /** Payloads that reached Ferry's engine. */
  arrived: number;
}

const { values } = parseArgs({ options: { setups: { type: 'string' } } });
const setups = Number(values.setups ?? process.env.SETUPS ?? DEFAULT_SETUPS);
if (!Number.isSafeInteger(setups) || setups < 1) throw new Error('--setups takes a positive count');

/** The spec peer's own steps name each signal it sent. */
function signalsSent(steps: readonly string[]): number {
  return steps.filter((step) => / sent (offer|candidate)$/.test(step)).length;
}

/** One setup: the spec peer sends, the engine receives; resolves with what went wrong, if anything. */
async function oneSetup(
  serverUrl: string,
  destination: string,
  setup: number,
): Promise<{ failures: Failure[]; signals: SignalCount }> {
  let arrived = 0;
  let receiving: Promise<string> | undefined;
  let cancel: (() => void) | undefined;
  let steps: readonly string[] = [];
  const sending = specSend({
    serverUrl,
    files: [{ name: 'one.txt', bytes: new TextEncoder().encode(`setup ${setup}\n`) }],
    onCode: (code) => {
      const transfer = receiveFiles({
        serverUrl,
        code,
        destination,
        remedySurface: 'cli',
        reportBytes: false,
        // What a source build announces (data-channel spec, `ver`); the CLI sends its version.
        ver: 'dev',
        // The engine's test seam, used only to count what arrives; it lets everything through.
        signalFilter: (_payload, direction) => {
          if (direction === 'in') arrived += 1;
          return true;
        },
      });
      cancel = () => transfer.cancel();
      receiving = transfer.finished.then((final) =>
        final.phase === 'done' ? 'done' : `${final.code}: ${final.message}`,
      );
    },
  }).then(
    (result) => {
      steps = result.steps;
      return 'done';
    },
    (error: unknown) => {
      if (error instanceof SpecPeerError) steps = error.steps;
      return errorMessage(error);
    },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'unfinished'>((resolve) => {
    timer = setTimeout(() => resolve('unfinished'), SETUP_DEADLINE_MS);
  });
  const sent = await Promise.race([sending, deadline]);
  const received = await Promise.race([receiving ?? Promise.resolve('never started'), deadline]);
  clearTimeout(timer);
  const signals = { setup, sent: signalsSent(steps), arrived };
  if (sent === 'unfinished' || received === 'unfinished') {
    cancel?.();
    const message = `unfinished after ${SETUP_DEADLINE_MS} ms (spec sender: ${sent}; Ferry receiver: ${received})`;
    return { failures: [{ setup, side: 'both', message }], signals };
  }
  const failures: Failure[] = [];
  if (sent !== 'done') failures.push({ setup, side: 'spec sender', message: sent });
  if (received !== 'done') failures.push({ setup, side: 'Ferry receiver', message: received });
  return { failures, signals };
}

const server = await startSignalingServer({
  host: '127.0.0.1',
  port: 0,
  log: { info: () => undefined, error: () => undefined },
  maxConnectionsPerIp: GENEROUS_LIMIT,
  maxCodeRequestsPerIp: GENEROUS_LIMIT,
});
const scratch = await mkdtemp(join(tmpdir(), 'ferry-setup-race-'));
const failures: Failure[] = [];
const signals: SignalCount[] = [];
const started = performance.now();
let completed = 0;
try {
  for (let setup = 1; setup <= setups; setup += 1) {
    const destination = join(scratch, String(setup));
    const outcome = await oneSetup(server.url, destination, setup);
    if (outcome.failures.length === 0) completed += 1;
    else {
      failures.push(...outcome.failures);
      signals.push(outcome.signals);
    }
    await rm(destination, { recursive: true, force: true });
  }
} finally {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}
console.log(
  JSON.stringify(
    {
      setups,
      completed,
      failed: setups - completed,
      failures,
      signals,
      ms: Math.round(performance.now() - started),
    },
    null,
    2,
  ),
);
process.exit(completed === setups ? 0 : 1);
