import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildPrograms, DIST, ROOT } from './build.mjs';

/** The packages only a Redis cluster needs (src-main/signaling-server/cluster). */
const CLUSTER_ROOTS = ['ioredis', '@socket.io/redis-adapter'];
/** What `send` and `receive` load, and `ferry --help` must not (`npm run bench:startup`). */
const TRANSFER_PACKAGES = ['node-datachannel', '@peculiar/x509', 'reflect-metadata'];

/**
 * Every package an output loads as it starts: its static imports, followed through the chunks
 * they name, but not its `import()`s.
 */
function loadedAtStart(metafile: Metafile, output: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [output];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const entry of metafile.outputs[file]?.imports ?? []) {
      if (entry.kind !== 'import-statement') continue;
      if (entry.external) packages.add(entry.path);
      else pending.push(entry.path);
    }
  }
  return packages;
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** `roots` and everything they depend on, by package-lock.json's hoisted tree. */
function withDependencies(roots: readonly string[]): Set<string> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const found = new Set<string>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (found.has(name)) continue;
    found.add(name);
    const entry = lock.packages[`node_modules/${name}`] ?? {};
    pending.push(...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }));
  }
  return found;
}

function productionDependencies(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.keys(manifest.dependencies);
}

describe('the build (scripts/build.mjs)', () => {
  it('starts `ferry --help` without WebRTC or Redis, and the servers without Redis', async () => {
    const metafile = await buildPrograms();

    const cli = loadedAtStart(metafile, 'dist/cli/main.js');
    for (const name of [...TRANSFER_PACKAGES, ...CLUSTER_ROOTS]) expect(cli).not.toContain(name);
    for (const program of ['dist/signaling-server/main.js', 'dist/web-host/main.js']) {
      const loaded = loadedAtStart(metafile, program);
      expect(loaded).toContain('express');
      for (const name of CLUSTER_ROOTS) expect(loaded).not.toContain(name);
    }
  });

  it('leaves out of the desktop app exactly the packages only a cluster needs', async () => {
    const desktop = await build({
      absWorkingDir: ROOT,
      entryPoints: { main: join(ROOT, 'src-main/electron/main.ts') },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      outdir: join(ROOT, 'out/desktop-imports'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const loaded = loadedAtStart(desktop.metafile, 'out/desktop-imports/main.js');
    expect(loaded).toContain('node-datachannel');

    const others = withDependencies(
      productionDependencies().filter((name) => !CLUSTER_ROOTS.includes(name)),
    );
    const clusterOnly = [...withDependencies(CLUSTER_ROOTS)].filter((name) => !others.has(name));
    for (const name of clusterOnly) expect(loaded).not.toContain(name);

    const config = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    const excluded = [...config.matchAll(/^\s+- '!node_modules\/(.+)\/\*\*'$/gm)].map(
      (match) => match[1],
    );
    const covers = (pattern: string, name: string): boolean =>
      name === pattern || name.startsWith(`${pattern}/`);
    // Each of them left out, and nothing else: a stray pattern could take what the app needs.
    expect(
      clusterOnly.filter((name) => !excluded.some((pattern) => covers(pattern, name))),
    ).toEqual([]);
    expect(
      excluded.filter((pattern) => !clusterOnly.some((name) => covers(pattern, name))),
    ).toEqual([]);
  });

  it('rebuilds before `npm run cli` runs, so a stale dist/ never runs', async () => {
    await buildPrograms();
    const program = join(DIST, 'cli/main.js');
    writeFileSync(program, 'process.stdout.write("a stale build\\n");\n');

    const run = spawnSync('npm', ['run', '--silent', 'cli', '--', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
    });

    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
