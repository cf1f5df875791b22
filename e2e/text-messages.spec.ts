import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { INLINE_TEXT_MAX_BYTES } from '../src-shared/protocol/limits';
import { installDesktopBridge } from './support/desktop-bridge/install-bridge';
import {
  startLoopbackDesktop,
  type LoopbackDesktop,
} from './support/desktop-bridge/loopback-desktop';
import { requireTool } from './support/required-tools';
import { ChildProgram } from './support/web-client/child-program';
import { usePageRig } from './support/web-client/page-rig';
import { ensureRendererBuilt } from './support/web-client/renderer-build';

// docs/protocol.md, "Text messages": a text goes from one Ferry to another and is shown, not
// saved, on the web client, the desktop app and the command line.
requireTool('chromium');

const CLI = 'src-main/cli/main.ts';
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const STEP_MS = 60_000;
const LINKED = 'Meet at the north gate https://example.com/map?at=north';

/** The lines a command-line receiver printed after its `Text:` line, once it exited. */
async function printedText(receiver: ChildProgram): Promise<string> {
  expect(await receiver.waitForExit(STEP_MS * 2)).toBe(0);
  const lines = receiver.output.split('\n');
  const label = lines.indexOf('Text:');
  expect(label, receiver.output).toBeGreaterThanOrEqual(0);
  return lines
    .slice(label + 1)
    .join('\n')
    .trimEnd();
}

function cliReceiver(serverUrl: string, out: string, code: string): ChildProgram {
  return new ChildProgram(CLI, [
    'receive',
    '--server',
    serverUrl,
    '--out',
    out,
    '--yes',
    '--no-report',
    code,
  ]);
}

test.describe('the web client', () => {
  const rig = usePageRig('text');

  test('shows a short text from the command line at once, with Copy and no Accept or link', async ({
    browser,
  }, testInfo) => {
    const sender = new ChildProgram(CLI, ['send', '--server', rig.web.serverUrl, '--text', LINKED]);
    const [, code] = await sender.waitForLine(CODE_LINE, STEP_MS);
    const peer = await rig.browserPeer(browser);
    await peer.receive(code);
    // At most INLINE_TEXT_MAX_BYTES: no prompt to answer, the text is the first thing shown.
    const shown = peer.page.getByRole('region').getByLabel('Received text');
    await expect(shown).toHaveText(LINKED, { timeout: STEP_MS });
    await expect(peer.page.getByRole('heading', { name: /sent a text$/ })).toBeVisible();
    await expect(peer.page.getByText(/^A text message \(55 characters\)/)).toBeVisible();
    await expect(peer.page.getByRole('button', { name: 'Accept' })).toHaveCount(0);
    await expect(peer.page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
    await expect(peer.page.getByRole('button', { name: 'Dismiss' })).toBeVisible();
    // Shown, never made a link: nothing on the done step is an anchor.
    await expect(peer.page.getByTestId('transfer-done').locator('a')).toHaveCount(0);
    await expect(peer.page.getByRole('link', { name: /example\.com/ })).toHaveCount(0);
    await peer.page.getByTestId('transfer-done').screenshot({
      path: testInfo.outputPath('received-text.png'),
    });
    expect(await sender.waitForExit(STEP_MS)).toBe(0);
  });

  test('asks before showing a text longer than 1 KiB', async ({ browser }) => {
    const long = 'x'.repeat(INLINE_TEXT_MAX_BYTES + 1);
    const sender = new ChildProgram(CLI, ['send', '--server', rig.web.serverUrl, '--text', long]);
    const [, code] = await sender.waitForLine(CODE_LINE, STEP_MS);
    const peer = await rig.browserPeer(browser);
    await peer.receive(code);
    const prompt = peer.page.getByRole('heading', { name: 'Incoming text message' });
    await expect(prompt).toBeVisible({ timeout: STEP_MS });
    await peer.page.getByRole('button', { name: 'Accept' }).click();
    const shown = peer.page.getByRole('region').getByLabel('Received text');
    await expect(shown).toHaveText(long, { timeout: STEP_MS });
    expect(await sender.waitForExit(STEP_MS)).toBe(0);
  });

  test('names a text as a text on both pages and in both histories', async ({
    browser,
  }, testInfo) => {
    const sender = await rig.browserPeer(browser);
    const receiver = await rig.browserPeer(browser);
    const typed = 'Page to page ✓';
    const words = 'a text message (14 characters)';
    await sender.page.getByLabel('Send a text').fill(typed);
    await sender.page.getByRole('button', { name: 'Send text' }).click();
    const codeShown = sender.page.getByTestId('transfer-code');
    await expect(codeShown).toBeVisible();
    await expect(sender.page.getByText(`Sending ${words}.`)).toBeVisible();
    const code = ((await codeShown.textContent()) ?? '').trim();

    await receiver.receive(code);
    await expect(receiver.page.getByRole('region').getByLabel('Received text')).toHaveText(typed, {
      timeout: STEP_MS,
    });
    const sentDone = sender.page.getByTestId('transfer-done');
    await expect(sentDone).toContainText(`A text message (14 characters) arrived`, {
      timeout: STEP_MS,
    });
    await expect(sentDone).not.toContainText('message.txt');
    await expect(sentDone).not.toContainText('1 file');

    for (const [peer, verb] of [
      [sender, 'Sent'],
      [receiver, 'Received'],
    ] as const) {
      const history = peer.page.getByTestId('web-history');
      await history.getByText('History', { exact: true }).click();
      const entry = history.getByRole('listitem', { name: `${verb} ${words} ` });
      await expect(entry).toBeVisible();
      await expect(entry.getByLabel('Text')).toHaveText(typed);
      await expect(entry.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
      await expect(entry).not.toContainText('message.txt');
      await history.screenshot({ path: testInfo.outputPath(`history-${verb}.png`) });
    }
  });

  test('sends a typed text that the command line prints after "Text:"', async ({ browser }) => {
    const peer = await rig.browserPeer(browser);
    const typed = 'From the browser ✓\nsecond line';
    await peer.page.getByLabel('Send a text').fill(typed);
    await peer.page.getByRole('button', { name: 'Send text' }).click();
    const codeShown = peer.page.getByTestId('transfer-code');
    await expect(codeShown).toBeVisible();
    const code = ((await codeShown.textContent()) ?? '').trim();

    const out = join(rig.scratch.path, 'from-browser');
    const receiver = cliReceiver(rig.web.serverUrl, out, code);
    expect(await printedText(receiver)).toBe(typed);
    await expect(peer.page.getByTestId('transfer-done')).toBeVisible({ timeout: STEP_MS });
  });

  test('keeps the text in its box when the send is cancelled on the code screen', async ({
    browser,
  }) => {
    const peer = await rig.browserPeer(browser);
    const typed = 'Cancelled, but not lost';
    await peer.page.getByLabel('Send a text').fill(typed);
    await peer.page.getByRole('button', { name: 'Send text' }).click();
    await expect(peer.page.getByTestId('transfer-code')).toBeVisible();
    await peer.cancel();
    await expect(peer.page.getByLabel('Send a text')).toHaveValue(typed, { timeout: STEP_MS });
  });
});

test.describe('the desktop app', () => {
  let desktop: LoopbackDesktop;

  test.beforeAll(() => ensureRendererBuilt());

  test.beforeEach(async ({ page }) => {
    desktop = await startLoopbackDesktop('desktop-text');
    await installDesktopBridge(page, desktop.bridge.wsUrl);
    await page.goto(desktop.bridge.url);
  });

  test.afterEach(async () => {
    await desktop.close();
  });

  test('sends a typed text that the command line prints after "Text:"', async ({ page }) => {
    await page.getByLabel('Send a text').fill(LINKED);
    await page.getByRole('button', { name: 'Send text' }).click();
    const codeShown = page.getByTestId('transfer-code');
    await expect(codeShown).toBeVisible();
    const code = ((await codeShown.textContent()) ?? '').trim();

    const receiver = cliReceiver(
      desktop.server.url,
      join(desktop.scratch.path, 'from-desktop'),
      code,
    );
    expect(await printedText(receiver)).toBe(LINKED);
    await expect(page.getByTestId('transfer-done')).toBeVisible({ timeout: STEP_MS });
  });
});
