import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DesktopControllerOptions } from '../../../src-main/desktop/desktop-controller';

/**
 * A desktop controller as tests run it: its own user-data folder, no LAN discovery, and dialogs
 * and shell actions that answer nothing; `overrides` sets what a test cares about.
 */
export function testControllerOptions(
  overrides: Partial<DesktopControllerOptions> = {},
): DesktopControllerOptions {
  return {
    userDataDir: mkdtempSync(join(tmpdir(), 'ferry-controller-')),
    defaultDownloadFolder: tmpdir(),
    webClientRoot: resolve(import.meta.dirname, '../../../out/renderer'),
    version: 'dev',
    discoverRooms: false,
    dialogs: {
      pickFiles: async () => [],
      pickFolder: async () => [],
      pickDownloadFolder: async () => null,
      confirmChange: async () => false,
    },
    desktopShell: {
      openFolder: async () => undefined,
      revealFile: () => undefined,
    },
    ...overrides,
  };
}
