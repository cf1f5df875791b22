import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restrictedMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('the layering of docs/architecture.md is enforced by lint', () => {
  it.each([
    ["import { readFile } from 'node:fs';", 'Node'],
    ["import { readFile } from 'fs';", 'Node'],
    ["import { app } from 'electron';", 'Electron'],
    ["import { createRoot } from 'react-dom/client';", 'DOM'],
    ["import { x } from '../src-main/engine';", 'src-main'],
    ["import { x } from '../../src-renderer/app/app';", 'src-renderer'],
  ])('src-shared rejects %s', async (code, word) => {
    const messages = await restrictedMessages(
      'src-shared/protocol/bad.ts',
      `${code}\nexport { };\n`,
    );
    expect(messages.join('\n')).toContain(word);
  });

  it('src-shared rejects clock reads and timers in the protocol core', async () => {
    const messages = await restrictedMessages(
      'src-shared/protocol/bad.ts',
      'export const now = Date.now();\nsetTimeout(() => undefined, 1);\n',
    );
    expect(messages).toHaveLength(2);
  });

  it('src-shared accepts imports within itself', async () => {
    const messages = await restrictedMessages(
      'src-shared/protocol/good.ts',
      "import { x } from './limits';\nexport const y = x;\n",
    );
    expect(messages).toEqual([]);
  });

  it('src-renderer rejects importing src-main', async () => {
    const messages = await restrictedMessages(
      'src-renderer/app/bad.ts',
      "import { x } from '../../src-main/engine';\nexport const y = x;\n",
    );
    expect(messages.join('\n')).toContain('never import each other');
  });

  it('src-main rejects importing src-renderer', async () => {
    const messages = await restrictedMessages(
      'src-main/cli/bad.ts',
      "import { x } from '../../src-renderer/app/app';\nexport const y = x;\n",
    );
    expect(messages.join('\n')).toContain('never import each other');
  });
});

/** The messages for one import line in `filePath`; [] when the import is allowed. */
async function importMessages(filePath: string, from: string): Promise<string[]> {
  return restrictedMessages(filePath, `import { x } from '${from}';\nexport const y = x;\n`);
}

describe('the layering below the top level is enforced by lint', () => {
  it.each([
    ['src-main/engine/bad.ts', '../cli/run-send'],
    ['src-main/engine/bad.ts', '../desktop/desktop-controller'],
    ['src-main/engine/bad.ts', '../electron/ipc-hub'],
    ['src-main/engine/bad.ts', '../web-host'],
    ['src-main/engine/test-support/bad.ts', '../../cli/cli-io'],
    ['src-main/engine/bad.test.ts', '../../src-main/desktop/transfer-session'],
  ])('the engine (%s) rejects its shell %s', async (file, from) => {
    expect((await importMessages(file, from)).join('\n')).toContain('shells over it');
  });

  it('the engine rejects Electron itself', async () => {
    expect((await importMessages('src-main/engine/bad.ts', 'electron')).join('\n')).toContain(
      'plain Node',
    );
  });

  it('the engine may use the signaling server and src-shared', async () => {
    expect(await importMessages('src-main/engine/good.ts', '../signaling-server')).toEqual([]);
    expect(await importMessages('src-main/engine/good.ts', '../../src-shared/protocol')).toEqual(
      [],
    );
  });

  it.each([
    ['src-main/web-host/bad.ts', '../signaling-server/log-sink'],
    ['src-main/web-host/bad.ts', '../signaling-server/http/final-error-handler'],
    ['src-main/web-host/bad.ts', '../signaling-server/test-support/test-server'],
    ['src-main/web-host/bad.test.ts', '../signaling-server/start-signaling-server'],
  ])("web-host (%s) rejects the signaling server's module %s", async (file, from) => {
    expect((await importMessages(file, from)).join('\n')).toContain('public entry');
  });

  it("web-host may use the signaling server's entry, and its tests its test-support", async () => {
    expect(await importMessages('src-main/web-host/good.ts', '../signaling-server')).toEqual([]);
    expect(
      await importMessages(
        'src-main/web-host/good.test.ts',
        '../signaling-server/test-support/peers',
      ),
    ).toEqual([]);
  });

  it.each([
    ['src-renderer/components/bad.tsx', '../app/stores-context'],
    ['src-renderer/components/bad.test.tsx', '../app/app'],
    ['src-renderer/screens/bad.tsx', '../app/app-layout'],
    ['src-renderer/components/nested/bad.tsx', '../../app'],
  ])('a renderer component or screen (%s) rejects %s', async (file, from) => {
    expect((await importMessages(file, from)).join('\n')).toContain('never import from app/');
  });

  it('components and screens may use the stores, and app may use them all', async () => {
    expect(
      await importMessages('src-renderer/components/good.tsx', '../stores/stores-context'),
    ).toEqual([]);
    expect(await importMessages('src-renderer/app/good.tsx', '../screens/send-screen')).toEqual([]);
  });

  it.each([
    ['src-main/cli/bad.ts', '../engine/transfer'],
    ['src-main/desktop/bad.ts', '../engine/engine-options'],
    ['src-main/desktop/bad.ts', '../engine/index'],
    ['src-main/cli/bad.ts', '../engine/test-support/files-on-disk'],
    ['src-main/signaling-server/cluster/bad.test.ts', '../../engine/send-files'],
    ['e2e/support/bad.ts', '../../src-main/engine/peer-link'],
    ['bench/bad.ts', '../src-main/engine/test-support/loopback-server'],
    ['scripts/bad.ts', '../src-main/engine/transfer'],
  ])("outside the engine, %s rejects the engine's module %s", async (file, from) => {
    expect((await importMessages(file, from)).join('\n')).toContain('surface is its index');
  });

  it('outside the engine, code imports its index, and tests also its test-support', async () => {
    expect(await importMessages('src-main/cli/good.ts', '../engine')).toEqual([]);
    expect(await importMessages('bench/good.ts', '../src-main/engine')).toEqual([]);
    expect(
      await importMessages('src-main/cli/good.test.ts', '../engine/test-support/files-on-disk'),
    ).toEqual([]);
    expect(
      await importMessages('e2e/good.spec.ts', '../src-main/engine/test-support/loopback-server'),
    ).toEqual([]);
  });

  it.each([
    ['src-renderer/backend/bad.ts', './browser/browser-backend'],
    ['src-renderer/app/bad.tsx', '../backend/browser/file-pickers'],
    ['src-renderer/stores/bad.ts', '../backend/browser'],
    ['src-renderer/components/bad.tsx', '../backend/browser/dropped-items'],
  ])('%s rejects a static import of the browser backend (%s)', async (file, from) => {
    expect((await importMessages(file, from)).join('\n')).toContain('import()');
  });

  it('the browser backend is loaded with import(), and imports itself freely', async () => {
    const dynamic = await restrictedMessages(
      'src-renderer/backend/good.ts',
      "export const load = () => import('./browser/browser-backend');\n",
    );
    expect(dynamic).toEqual([]);
    expect(
      await importMessages('src-renderer/backend/browser/good.ts', './browser-backend'),
    ).toEqual([]);
  });
});

describe('limits and deadlines are defined once, in src-shared, by lint', () => {
  async function limitMessages(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((m) => m.ruleId === 'no-restricted-syntax')
      .map((m) => m.message);
  }

  it.each([
    ['src-main/engine/bad.ts', 'export const WAIT_TIMEOUT = 5;'],
    ['src-main/cli/bad.ts', 'const LINE_INTERVAL_MS = 2_000;\nexport const x = LINE_INTERVAL_MS;'],
    ['src-renderer/backend/browser/bad.ts', 'export const BATCH_BYTES = 4;'],
    ['src-renderer/components/bad.tsx', 'export const MAX_LISTED = 100;'],
  ])('%s rejects a limit of its own: %s', async (file, code) => {
    expect((await limitMessages(file, `${code}\n`)).join('\n')).toContain('src-shared');
  });

  it('accepts them in src-shared, in tests, and other constants anywhere', async () => {
    expect(await limitMessages('src-shared/session/good.ts', 'export const X_MS = 1;\n')).toEqual(
      [],
    );
    expect(
      await limitMessages('src-main/engine/good.test.ts', 'const X_MS = 1;\nexport { X_MS };\n'),
    ).toEqual([]);
    expect(
      await limitMessages('src-main/engine/good.ts', "export const LABEL = 'ferry';\n"),
    ).toEqual([]);
  });
});
