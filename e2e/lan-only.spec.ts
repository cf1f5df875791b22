import { expect, test } from '@playwright/test';
import { join, resolve } from 'node:path';
import { createNetnsPair, typeScriptArgs, type NetnsPair } from './support/netns';
import { requireNetns } from './support/required-netns';
import { ensureRendererBuilt } from './support/web-client/renderer-build';
import { digestTree, randomFile, scratchDir } from './support/web-client/test-files';

const ROOT = resolve(import.meta.dirname, '..');

let lan: NetnsPair | undefined;
let scratch: ReturnType<typeof scratchDir>;

test.beforeEach(async () => {
  await requireNetns('build a private LAN');
  ensureRendererBuilt();
  scratch = scratchDir('lan-only');
  lan = await createNetnsPair();
});

test.afterEach(async () => {
  await lan?.destroy();
  scratch?.remove();
});

test('with no route off the LAN, a command-line peer finds the hosted room and receives through it', async () => {
  const { a, b } = lan!;
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'holiday/a.jpg', 700_000);
  randomFile(outbox, 'holiday/b.jpg', 0);

  const host = a.spawn(
    process.execPath,
    typeScriptArgs(
      join(ROOT, 'e2e/support/lan-room-sender.ts'),
      a.address,
      join(outbox, 'holiday'),
    ),
  );
  const room = await host.waitForLine(/^Room: /, 30_000);
  expect(room).toMatch(new RegExp(`^Room: http://${a.address.replace(/\./g, '\\.')}:\\d+$`));
  const code = (await host.waitForLine(/^Code: /, 30_000)).slice('Code: '.length);

  const inbox = join(scratch.path, 'inbox');
  const receiver = b.spawn(
    process.execPath,
    typeScriptArgs(
      join(ROOT, 'src-main/cli/main.ts'),
      'receive',
      '--lan',
      '--out',
      inbox,
      '--yes',
      '--no-report',
      code,
    ),
  );
  expect(await receiver.waitForExit(60_000), receiver.transcript()).toBe(0);
  expect(await host.waitForExit(30_000), host.transcript()).toBe(0);
  expect(digestTree(inbox)).toEqual(digestTree(outbox));
});
