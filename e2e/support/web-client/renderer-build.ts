import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

/** The built web client the web host serves. */
export const RENDERER_OUT = join(ROOT, 'out/renderer');

const SOURCES = ['src-renderer', 'src-shared'].map((folder) => join(ROOT, folder));

function newestSource(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory())
    return path.endsWith('.test.ts') || path.endsWith('.test.tsx') ? 0 : stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/**
 * Builds the renderer when out/renderer is missing or older than its sources, so the tests run
 * the web client as it is in the working tree and not a stale build.
 */
export function ensureRendererBuilt(): string {
  const index = join(RENDERER_OUT, 'index.html');
  const stale =
    !existsSync(index) || statSync(index).mtimeMs < Math.max(...SOURCES.map(newestSource));
  if (stale) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  return RENDERER_OUT;
}
