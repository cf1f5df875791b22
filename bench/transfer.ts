// `npm run bench:transfer [-- --size 1GiB] [--rounds 5] [--browser-size 512MiB] [--native-only]`:
// the native engine sending a generated file between two processes on loopback, against a bare
// node-datachannel channel between two processes measured in the same run; then the web client in
// Chromium to the native engine and back, each against a bare Chromium ↔ node-datachannel channel
// (bench/transfer-browser.ts). Each figure is the best of its rounds. Prints JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM_INSTALL_HINT, findChromium } from '../e2e/support/chromium';
import { startSignalingServer } from '../src-main/signaling-server';
import { benchBrowserTransfers } from './transfer-browser';
import { bareChannelRun, engineRun, type RunFigures } from './transfer/measured-run';
import { writePayload } from './transfer/payload-file';
import { parseSize } from './transfer/parse-size';

/** The goals: the engine at 90% of a bare channel or better, under 250 MB per process. */
const RATIO_GOAL = 0.9;
const PEAK_RSS_GOAL_MB = 250;

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1GiB' },
    rounds: { type: 'string', default: '5' },
    'browser-size': { type: 'string', default: '512MiB' },
    'native-only': { type: 'boolean', default: false },
  },
});
const bytes = parseSize(values.size);
const rounds = Math.max(1, Number(values.rounds));

const scratch = await mkdtemp(join(tmpdir(), 'ferry-bench-transfer-'));
const file = join(scratch, 'payload.bin');
const server = await startSignalingServer({
  host: '127.0.0.1',
  port: 0,
  log: { info: () => undefined, error: (line) => console.error(line) },
});
try {
  await writePayload(file, bytes);
  // Alternating runs share whatever else the machine is doing; the best of each is reported.
  const bare: RunFigures[] = [];
  const engine: RunFigures[] = [];
  for (let round = 0; round < rounds; round += 1) {
    bare.push(await bareChannelRun(bytes));
    engine.push(await engineRun(server.url, file, bytes, scratch));
  }
  const bestBare = fastest(bare);
  const bestEngine = fastest(engine);
  const ratio = Math.round((bestEngine.mibPerSecond / bestBare.mibPerSecond) * 100) / 100;
  const peakRssMB = Math.max(
    ...[...bare, ...engine].flatMap((run) => [run.sender.peakRssMB, run.receiver.peakRssMB]),
  );
  const nativeToNative = {
    bytes,
    rounds,
    engine: bestEngine,
    bareChannel: bestBare,
    ratio,
    meetsRatioGoal: ratio >= RATIO_GOAL,
    engineMeetsRssGoal:
      Math.max(...engine.flatMap((run) => [run.sender.peakRssMB, run.receiver.peakRssMB])) <
      PEAK_RSS_GOAL_MB,
    peakRssMB,
  };
  const result: Record<string, unknown> = { nativeToNative };
  if (!values['native-only']) {
    result.browser =
      findChromium() === undefined
        ? { skipped: CHROMIUM_INSTALL_HINT }
        : await benchBrowserTransfers(parseSize(values['browser-size']));
  }
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}
// Every connection is closed by now, yet after one full run here a closed node-datachannel
// connection still held a native callback that kept the process alive with no handle left in
// the event loop, and node-datachannel's own cleanup() crashes at that point. As the CLI does,
// give the event loop a moment and then end.
const EXIT_GUARD_MS = 5_000;
setTimeout(() => process.exit(), EXIT_GUARD_MS).unref();

function fastest(runs: RunFigures[]): RunFigures {
  return runs.reduce((best, run) => (run.mibPerSecond > best.mibPerSecond ? run : best));
}
