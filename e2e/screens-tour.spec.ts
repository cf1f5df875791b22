import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { routeBridge } from './support/desktop-bridge/held-bridge';
import { dropPaths, installDesktopBridge } from './support/desktop-bridge/install-bridge';
import {
  startLoopbackDesktop,
  type LoopbackDesktop,
} from './support/desktop-bridge/loopback-desktop';
import { requireTool } from './support/required-tools';
import { checkScreen, walkKeyboard, type ScreenVisit } from './support/screen-checks';
import { ChildProgram } from './support/web-client/child-program';
import { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

// Issue 19: every main screen of the desktop UI and of the web client, in light and dark and at
// 1280 and 360 px, has no axe violation, and the main ones can be used from the keyboard alone.
// `npm run screenshots` (FERRY_SCREENSHOTS=docs/images) also writes the docs' pictures.
requireTool('chromium');

/** More than a screen of names, so the accept prompt's and the done screen's lists scroll. */
const LONG_LIST = 160;
const LAST_PHOTO = `img-${LONG_LIST}.jpg`;
/** Big enough that the web client is still receiving while each variant is looked at. */
const SLOW_FILE_BYTES = 3 * 1024 * 1024 * 1024;
/** A code nobody is sending under: the server answers that it is unknown. */
const UNKNOWN_CODE = 'plaza-otter-canal';

/** A folder of LONG_LIST small photos and one big file, for a list that scrolls. */
function albumOf(folder: string, bigBytes: number): string {
  for (let n = 1; n <= LONG_LIST; n += 1)
    randomFile(folder, `photos/img-${String(n).padStart(3, '0')}.jpg`, 2_000);
  sparseFile(join(folder, 'video/holiday.mp4'), bigBytes);
  return folder;
}

/** A file of zeros that costs nothing to make, however big. */
function sparseFile(path: string, bytes: number): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
}

async function look(page: Page, testInfo: TestInfo, visit: ScreenVisit, keys = false) {
  await checkScreen(page, testInfo, visit);
  if (keys) await walkKeyboard(page, visit.name);
}

const DESKTOP = { scheme: 'light', width: 1280 } as const;
const PHONE = { scheme: 'light', width: 360 } as const;

test.describe('the desktop app, through the bridge', () => {
  let desktop: LoopbackDesktop;

  test.beforeEach(async () => {
    desktop = await startLoopbackDesktop('tour-desktop');
  });

  test.afterEach(async () => {
    await desktop.close();
  });

  test('start-up, Send, the code, a decline, Receive and a failure', async ({ page }, testInfo) => {
    const socket = await routeBridge(page, desktop.bridge.wsUrl, true);
    await installDesktopBridge(page, desktop.bridge.wsUrl);
    await page.goto(desktop.bridge.url);
    await expect(page.getByText('Starting Ferry…')).toBeVisible();
    await look(page, testInfo, { name: 'starting' });
    socket.release();

    await expect(page.getByRole('tab', { name: 'Send' })).toBeVisible();
    await look(page, testInfo, { name: 'send-empty', docs: DESKTOP }, true);

    const album = join(desktop.scratch.path, 'Album');
    randomFile(album, 'cover.jpg', 300_000);
    randomFile(album, 'disc 1/01 – intro.flac', 250_000);
    const notes = randomFile(desktop.scratch.path, 'liner notes.pdf', 40_000);
    await dropPaths(page, [album, notes]);
    await expect(page.getByText('liner notes.pdf')).toBeVisible();
    await look(page, testInfo, { name: 'send-selection', docs: DESKTOP }, true);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const code = ((await page.getByTestId('transfer-code').textContent()) ?? '').trim();
    expect(code).toMatch(/^[a-z]+(-[a-z]+){2,3}$/);
    await look(page, testInfo, { name: 'send-screen', docs: DESKTOP }, true);

    const receiver = commandLine.receive(desktop.server.url, code, {
      destination: join(desktop.scratch.path, 'inbox'),
      ask: true,
    });
    await receiver.offered();
    await expect(page.getByRole('heading', { name: /^Waiting for .+ to accept$/ })).toBeVisible();
    await look(page, testInfo, { name: 'waiting-for-acceptance' });
    receiver.answer(false);
    const declined = page.getByRole('region', { name: 'Declined by the other person' });
    await expect(declined).toBeVisible({ timeout: 30_000 });
    await look(page, testInfo, { name: 'declined-by-other', docs: DESKTOP }, true);
    await receiver.finished();

    await page.getByRole('tab', { name: 'Receive' }).click();
    await expect(page.getByRole('button', { name: 'Receive', exact: true })).toBeVisible();
    await look(page, testInfo, { name: 'receive', docs: DESKTOP }, true);

    await page.getByLabel('Code').fill(UNKNOWN_CODE);
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible({ timeout: 30_000 });
    await look(page, testInfo, { name: 'failed', docs: DESKTOP }, true);
  });

  test('a long offer, its progress, a long done list, a remembered device in Settings', async ({
    page,
  }, testInfo) => {
    const socket = await routeBridge(page, desktop.bridge.wsUrl);
    await installDesktopBridge(page, desktop.bridge.wsUrl);
    await page.goto(desktop.bridge.url);
    const sender = await commandLine.send(desktop.server.url, [
      albumOf(join(desktop.scratch.path, 'Holiday'), 512 * 1024 * 1024),
    ]);

    await page.getByRole('tab', { name: 'Receive' }).click();
    await page.getByLabel('Code').fill(sender.code);
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    const offered = page.getByRole('list', { name: 'Offered files' });
    await expect(offered).toContainText(LAST_PHOTO, { timeout: 60_000 });
    await look(page, testInfo, { name: 'accept-prompt', docs: DESKTOP }, true);

    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByTestId('transfer-progress')).toBeVisible({ timeout: 60_000 });
    // The controller carries on; the page keeps showing progress until released.
    socket.hold();
    await look(page, testInfo, { name: 'transferring', docs: DESKTOP }, true);
    socket.release();

    await expect(page.getByTestId('transfer-done')).toBeVisible({ timeout: 90_000 });
    expect((await sender.finished()).exitCode).toBe(0);
    await expect(page.getByRole('list', { name: 'Received files' })).toBeVisible();
    await look(page, testInfo, { name: 'done', docs: DESKTOP }, true);

    await page
      .getByRole('textbox', { name: 'If the words matched, remember this device as' })
      .fill('Build laptop');
    await page.getByRole('button', { name: 'Remember' }).click();
    await expect(page.getByText('Remembered as “Build laptop”.')).toBeVisible();
    await look(page, testInfo, { name: 'done-remembered' });

    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByText('Build laptop')).toBeVisible();
    await look(page, testInfo, { name: 'settings', docs: DESKTOP }, true);
  });
});

test.describe('the web client', () => {
  const rig = usePageRig('tour-web');

  test('start-up, Send, the code, a decline, Receive and a failure', async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const peer = new FerryPage(page, join(rig.scratch.path, 'downloads-1'));
    try {
      let answer = (): void => undefined;
      const answered = new Promise<void>((done) => (answer = done));
      await page.route('**/api/config', async (route) => {
        await answered;
        await route.continue();
      });
      await page.goto(rig.web.url);
      await expect(page.getByText('Starting Ferry…')).toBeVisible();
      await look(page, testInfo, { name: 'web-starting' });
      answer();

      await expect(page.getByRole('tab', { name: 'Send' })).toBeVisible();
      await look(page, testInfo, { name: 'web-send-empty', docs: PHONE }, true);

      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files' }).click();
      await (
        await chooser
      ).setFiles([
        randomFile(rig.scratch.path, 'outbox/report.pdf', 120_000),
        randomFile(rig.scratch.path, 'outbox/photo.jpg', 80_000),
      ]);
      await expect(page.getByText('photo.jpg')).toBeVisible();
      await look(page, testInfo, { name: 'web-send-selection', docs: PHONE }, true);

      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const code = ((await page.getByTestId('transfer-code').textContent()) ?? '').trim();
      await look(page, testInfo, { name: 'web-send-code', docs: PHONE }, true);

      const receiver = commandLine.receive(rig.web.url, code, {
        destination: join(rig.scratch.path, 'inbox'),
        ask: true,
      });
      await receiver.offered();
      receiver.answer(false);
      await peer.ended('Declined by the other person');
      await look(page, testInfo, { name: 'web-declined-by-other', docs: PHONE }, true);
      await receiver.finished();

      await page.getByRole('tab', { name: 'Receive' }).click();
      await expect(page.getByRole('button', { name: 'Receive', exact: true })).toBeVisible();
      await look(page, testInfo, { name: 'web-receive', docs: PHONE }, true);

      await peer.receive(UNKNOWN_CODE);
      await peer.failure();
      await look(page, testInfo, { name: 'web-failed', docs: PHONE }, true);
    } finally {
      await peer.close();
    }
  });

  test('a long offer, its progress, a long done list, the remembered devices', async ({
    browser,
  }, testInfo) => {
    const peer = await rig.browserPeer(browser);
    const { page } = peer;

    // First a big file, stopped part-way once its progress has been looked at.
    const big = await commandLine.send(rig.web.url, [
      sparseFile(join(rig.scratch.path, 'big/disk.img'), SLOW_FILE_BYTES),
    ]);
    await peer.receive(big.code);
    await peer.accept();
    await peer.transferring();
    await look(page, testInfo, { name: 'web-transferring', docs: PHONE }, true);
    await peer.cancel();
    await peer.ended('Transfer stopped');
    await look(page, testInfo, { name: 'web-stopped' });
    await big.finished();
    await page.getByRole('button', { name: 'Back' }).click();

    const sender = await commandLine.send(rig.web.url, [
      albumOf(join(rig.scratch.path, 'Holiday'), 1_000_000),
    ]);
    await peer.receive(sender.code);
    const offered = page.getByRole('list', { name: 'Offered files' });
    await expect(offered).toContainText(LAST_PHOTO, { timeout: 60_000 });
    await look(page, testInfo, { name: 'web-accept-prompt', docs: PHONE }, true);

    await peer.accept();
    await peer.done();
    expect((await sender.finished()).exitCode).toBe(0);
    await look(page, testInfo, { name: 'web-done', docs: PHONE }, true);

    await page
      .getByRole('textbox', { name: 'If the words matched, remember this device as' })
      .fill('Build laptop');
    await page.getByRole('button', { name: 'Remember' }).click();
    await expect(page.getByText('Remembered as “Build laptop”.')).toBeVisible();
    await page.getByText('Remembered devices', { exact: true }).click();
    const forget = page.getByRole('button', { name: 'Forget Build laptop' });
    await expect(forget).toBeVisible();
    await look(
      page,
      testInfo,
      { name: 'web-remembered-devices', docs: PHONE, shows: forget },
      true,
    );
  });
});

test.describe('the Nearby list in a LAN room', () => {
  const rig = usePageRig('tour-nearby', { presence: true });
  let listener: ChildProgram | undefined;

  test.afterEach(async () => {
    await listener?.stop();
  });

  test('another page and a command line in the room, files chosen', async ({
    browser,
  }, testInfo) => {
    listener = new ChildProgram('src-main/cli/main.ts', [
      'receive',
      '--listen',
      '--name',
      'Build box',
      '--server',
      rig.web.serverUrl,
    ]);
    await listener.waitForLine(/^Waiting/, 60_000);
    await rig.browserPeer(browser);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(rig.web.url);
      const nearby = page.locator('[data-testid="nearby-device"][data-online="true"]');
      await expect(nearby).toHaveCount(2, { timeout: 60_000 });
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files' }).click();
      await (await chooser).setFiles([randomFile(rig.scratch.path, 'nearby/holiday.jpg', 300_000)]);
      await look(page, testInfo, { name: 'web-nearby', docs: PHONE }, true);
    } finally {
      await context.close();
    }
  });
});
