// `npm run bench:startup [-- --runs N]` (or RUNS=N): the cold start of the built `ferry --help`
// (bin/ferry.js over dist/, what `npm install -g` installs) against a bare `node -e ''` in the
// same run, alternating, N of each (21 by default). Builds first (scripts/build.mjs programs).
// Prints JSON: runs, the median and fastest wall time of each in ms, and the ratio of the
// medians. A script, not a timed test: the target (docs/performance.md) is a ratio within 3.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './wan/summary';

const DEFAULT_RUNS = 21;
const ROOT = resolve(import.meta.dirname, '..');

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = Number(values.runs ?? process.env.RUNS ?? DEFAULT_RUNS);
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs takes a positive count');

const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), 'programs'], {
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

/** Wall time of one run of `node args`, from spawn to exit, in ms; throws if it fails. */
function timed(args: string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

const bare: number[] = [];
const help: number[] = [];
for (let run = 0; run < runs; run += 1) {
  bare.push(timed(['-e', '']));
  help.push(timed([join(ROOT, 'bin/ferry.js'), '--help']));
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
const summary = (times: number[]) => ({
  medianMs: round(median(times)),
  fastestMs: round(Math.min(...times)),
});
console.log(
  JSON.stringify(
    {
      runs,
      node: summary(bare),
      ferryHelp: summary(help),
      ratio: Math.round((median(help) / median(bare)) * 100) / 100,
    },
    null,
    2,
  ),
);
