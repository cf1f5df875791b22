import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function electronPackageDir(): string | undefined {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return undefined;
  }
}

/** The Electron executable to run, without triggering the package's own lazy download. */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const packageDir = electronPackageDir();
  const pathFile = packageDir && join(packageDir, 'path.txt');
  const relative = pathFile && existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative);
    return existsSync(binary) ? binary : undefined;
  }
  if (!packageDir) return undefined;
  const binary = join(packageDir, 'dist', relative);
  return existsSync(binary) ? binary : undefined;
}

/** Asks the electron package to fetch its runtime; false when offline or told not to. */
export function downloadElectronBinary(env: NodeJS.ProcessEnv = process.env): boolean {
  const packageDir = electronPackageDir();
  if (!packageDir || env.ELECTRON_SKIP_BINARY_DOWNLOAD) return false;
  const result = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
    stdio: 'ignore',
    timeout: 5 * 60_000,
  });
  return result.status === 0;
}
