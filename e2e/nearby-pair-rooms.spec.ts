import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { requireTool } from './support/required-tools';
import { ChildProgram } from './support/web-client/child-program';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile, sha256 } from './support/web-client/test-files';

// Remembered devices reach each other without a code (issue 36, "Pair rooms"), page and CLI: they
// remember each other through a transfer the secret link verified, then the page sees the CLI
// online while it runs `receive --listen` and sends to it with one click, and the CLI's
// `send --to` reaches the open page.

requireTool('chromium');

const CLI = 'src-main/cli/main.ts';
const STEP_TIMEOUT_MS = 60_000;
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const KEY_LINE = /^On the other device run: ferry receive \S+ --key=([A-Za-z0-9_-]{22})$/;

const rig = usePageRig('pair-rooms');
let home: string;
let out: string;
const programs: ChildProgram[] = [];

test.beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'ferry-pair-home-'));
  out = mkdtempSync(join(tmpdir(), 'ferry-pair-out-'));
});
test.afterEach(async () => {
  await Promise.all(programs.splice(0).map((program) => program.stop()));
  rmSync(home, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** The CLI of one installation (its own FERRY_HOME), against the rig's server. */
function cli(args: string[]): ChildProgram {
  const program = new ChildProgram(CLI, [...args, '--server', rig.web.serverUrl], {
    FERRY_HOME: home,
  });
  programs.push(program);
  return program;
}

test('a page and a CLI that remember each other send with one click and with send --to', async ({
  browser,
}) => {
  // They remember each other through a transfer the secret link verified.
  const first = randomFile(rig.scratch.path, 'first/notes.txt', 4096);
  const introduce = cli(['send', '--remember', 'Page', first]);
  const [, code] = await introduce.waitForLine(CODE_LINE, STEP_TIMEOUT_MS);
  const [, key] = await introduce.waitForLine(KEY_LINE, STEP_TIMEOUT_MS);
  const page = await rig.browserPeer(browser, `/#receive=${code}&key=${key}`);
  await page.page.getByRole('button', { name: 'Receive', exact: true }).click();
  await page.accept();
  await page.done();
  await page.page.getByRole('textbox', { name: /remember this device as/i }).fill('Build box');
  await page.page.getByRole('button', { name: 'Remember' }).click();
  expect(await introduce.waitForExit(STEP_TIMEOUT_MS)).toBe(0);
  await page.page.getByRole('button', { name: 'Receive another' }).click();

  // The CLI waits for its devices; the page sees it online and sends with one click.
  const listen = cli(['receive', '--listen', '--out', out, '--yes']);
  await page.page.getByRole('tab', { name: 'Send' }).click();
  const tile = page.page
    .getByTestId('nearby-device')
    .filter({ hasText: 'Build box' })
    .and(page.page.locator('[data-online="true"]'));
  await expect(tile).toContainText('Remembered device', { timeout: STEP_TIMEOUT_MS });
  const second = randomFile(rig.scratch.path, 'second/report.bin', 300_000);
  const chooser = page.page.waitForEvent('filechooser');
  await page.page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles([second]);
  await tile.click();
  await expect(page.page.getByTestId('transfer-code')).toHaveCount(0);
  expect(await page.done()).toContain('arrived on the other device');
  await listen.waitForLine(/report\.bin/, STEP_TIMEOUT_MS);
  expect(sha256(join(out, basename(second)))).toBe(sha256(second));
  await listen.stop();

  // The CLI reaches the open page by name, with no code.
  await page.page.getByRole('button', { name: 'Send more' }).click();
  const third = randomFile(rig.scratch.path, 'third/photo.raw', 200_000);
  const reach = cli(['send', '--to', 'Page', third]);
  await page.accept();
  expect(await page.done()).toContain('1 file');
  expect(await reach.waitForExit(STEP_TIMEOUT_MS)).toBe(0);
  const photo = (await page.savedDownloads(2)).find((path) => basename(path) === 'photo.raw');
  expect(photo === undefined ? undefined : sha256(photo)).toBe(sha256(third));
});
