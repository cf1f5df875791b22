import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives this test process, and every command-line peer it starts, a data folder of its own
 * (FERRY_HOME, src-main/cli/cli-devices.ts), so no test reads or writes the person's
 * ~/.config/ferry. Returns the function that removes it.
 */
export function usePrivateFerryHome(): () => void {
  if (process.env.FERRY_HOME) return () => undefined;
  const home = mkdtempSync(join(tmpdir(), 'ferry-home-'));
  process.env.FERRY_HOME = home;
  return () => rmSync(home, { recursive: true, force: true });
}
