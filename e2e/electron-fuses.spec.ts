import { FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { requireTool } from './support/required-tools';
import { REPO_ROOT } from './support/web-client/child-program';
import { ensureRendererBuilt } from './support/web-client/renderer-build';
import { scratchDir } from './support/web-client/test-files';

// Packaging needs an Electron dist to flip; without ELECTRON_OVERRIDE_DIST_PATH this is skipped.
const ELECTRON = requireTool('electron');
const PACKAGING_TIMEOUT_MS = 600_000;
// The fuse wire holds one ASCII digit per fuse (@electron/fuses' FuseState, not exported).
const FUSE_ON = '1'.charCodeAt(0);
const FUSE_OFF = '0'.charCodeAt(0);

/** What electron-builder.yml promises of the packaged binary (docs/architecture.md). */
const EXPECTED = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.EnableCookieEncryption]: true,
};

test('the packaged app has the fuses electron-builder.yml sets', async () => {
  test.setTimeout(PACKAGING_TIMEOUT_MS);
  const scratch = scratchDir('fuses');
  try {
    ensureRendererBuilt();
    execFileSync(
      'npx',
      [
        'electron-builder',
        '--config',
        'electron-builder.yml',
        '--linux',
        'dir',
        `--config.electronDist=${dirname(ELECTRON ?? '')}`,
        `--config.directories.output=${scratch.path}`,
      ],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
    const unpacked = readdirSync(scratch.path).find((name) => name.endsWith('-unpacked'));
    expect(unpacked).toBeDefined();
    const wire = await getCurrentFuseWire(join(scratch.path, unpacked ?? '', 'ferry'));
    expect(wire.version).toBe(FuseVersion.V1);
    for (const [index, enabled] of Object.entries(EXPECTED)) {
      const fuse = Number(index) as FuseV1Options;
      // Named in the comparison, so a failure says which fuse is wrong.
      expect({ fuse: FuseV1Options[fuse], state: wire[fuse] }).toEqual({
        fuse: FuseV1Options[fuse],
        state: enabled ? FUSE_ON : FUSE_OFF,
      });
    }
  } finally {
    scratch.remove();
  }
});
