import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/**
 * The files or folders a launch asks Ferry to send: arguments after the app's own, that exist
 * on disk. Chromium switches and the app path itself are not paths to send.
 */
export function pathsFromArgv(argv: readonly string[], cwd: string, skip: number): string[] {
  return argv
    .slice(skip)
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => (isAbsolute(arg) ? arg : resolve(cwd, arg)))
    .filter((path) => existsSync(path));
}
