// @ts-check
// The build of the programs Ferry runs (docs/architecture.md, "Build and packaging"): the CLI,
// the signaling server, the web host and `npm start`'s launcher compiled to dist/, and the
// desktop app and the web client the web host serves, built into out/. Plain JavaScript, so that
// it runs with no TypeScript loader.
//
//   node scripts/build.mjs            both (`npm install` runs this as `prepare`, `npm start` too)
//   node scripts/build.mjs programs   the Node programs only
//   node scripts/build.mjs web        the programs, and the web client where it is stale
//
// The programs are rebuilt every time (a fraction of a second), so `npm run cli/server/web`
// never run a build older than the source. Only files whose bytes changed are rewritten, each by
// an atomic rename: a sender and a receiver started together both build, and neither can load a
// half-written file of the other's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const RENDERER_OUT = join(ROOT, 'out/renderer');

/** Each program, by its path under dist/ without `.js`; `start` is `npm start`'s launcher. */
const PROGRAMS = {
  'cli/main': 'src-main/cli/main.ts',
  'signaling-server/main': 'src-main/signaling-server/main.ts',
  'web-host/main': 'src-main/web-host/main.ts',
  start: 'scripts/start.ts',
};

/**
 * Compiles the Node programs to dist/ and returns esbuild's metafile (what imports what).
 * Packages stay external: node-datachannel is native.
 */
export async function buildPrograms() {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(PROGRAMS).map(([out, source]) => [out, join(ROOT, source)]),
    ),
    bundle: true,
    // Splitting keeps what only `send`, `receive` or a cluster needs in chunks loaded by import(),
    // so `ferry --help` loads neither WebRTC nor Redis (`npm run bench:startup`).
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: DIST,
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  mkdirSync(DIST, { recursive: true });
  const wanted = new Set();
  for (const file of result.outputFiles) {
    wanted.add(file.path);
    writeIfChanged(file.path, file.contents);
  }
  // A `.tmp` is another build's write in flight.
  for (const path of filesUnder(DIST)) {
    if (!wanted.has(path) && !path.endsWith('.tmp')) rmSync(path);
  }
  return result.metafile;
}

/** @param {string} path @param {Uint8Array} contents */
function writeIfChanged(path, contents) {
  if (existsSync(path) && Buffer.from(contents).equals(readFileSync(path))) return;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** @param {string} folder @returns {string[]} */
function filesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** What the web client is built from: newer than out/renderer means it is stale. */
const RENDERER_SOURCES = ['src-renderer', 'src-shared', 'resources', 'electron.vite.config.ts'];

/** @param {string} path @returns {number} */
function newestSource(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/** Whether out/renderer is missing or older than any of its sources. */
export function rendererStale() {
  const index = join(RENDERER_OUT, 'index.html');
  if (!existsSync(index)) return true;
  const newest = Math.max(...RENDERER_SOURCES.map((source) => newestSource(join(ROOT, source))));
  return statSync(index).mtimeMs < newest;
}

/** Builds the desktop app and the web client (out/) with electron-vite. */
export function buildApp() {
  execFileSync(process.execPath, [electronVite(), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

function electronVite() {
  return join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js');
}

const invoked =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  const what = process.argv[2] ?? 'all';
  if (!['all', 'programs', 'web'].includes(what)) {
    console.error(
      `Usage: node ${relative(process.cwd(), process.argv[1] ?? '')} [all|programs|web]`,
    );
    process.exit(2);
  }
  await buildPrograms();
  if (what === 'all' || (what === 'web' && rendererStale())) buildApp();
}
