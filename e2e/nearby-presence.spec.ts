import { expect, test, type Browser, type Locator } from '@playwright/test';
import { basename } from 'node:path';
import { openNativePresence } from '../src-main/engine';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import { ChildProgram } from './support/web-client/child-program';
import type { FerryPage } from './support/web-client/ferry-page';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

// Who is in the LAN room (issue 36, "Presence"): the web host keeps a roster as a LAN room does
// (PRESENCE=1), and the Nearby list on the Send screen shows it live; choosing a device sends to
// it with no code. A server without the flag lists nobody.

requireTool('chromium');

const CLI = 'src-main/cli/main.ts';
/** Issue 36: a device shows on the others' lists within 2 s of joining. */
const JOIN_SEEN_MS = 2_000;
/** Issue 36: a device is gone from the others' lists within 5 s of leaving. */
const LEAVE_GONE_MS = 5_000;
const TRANSFER_TIMEOUT_MS = 60_000;

const peers: FerryPage[] = [];
const programs: ChildProgram[] = [];
let files: ReturnType<typeof scratchDir>;

test.beforeAll(() => {
  files = scratchDir('nearby');
});
test.afterAll(() => files.remove());
test.afterEach(async () => {
  await Promise.all([
    ...peers.splice(0).map((peer) => peer.close()),
    ...programs.splice(0).map((program) => program.stop()),
  ]);
});

async function page(browser: Browser, web: RunningWebClient): Promise<FerryPage> {
  const opened = await openPeer(browser, web.url);
  peers.push(opened);
  return opened;
}

/** The tiles of `peer`'s Nearby list. */
const tiles = (peer: FerryPage): Locator => peer.page.getByTestId('nearby-device');
const online = (peer: FerryPage): Locator =>
  peer.page.locator('[data-testid="nearby-device"][data-online="true"]');

for (const insecureName of [false, true]) {
  test.describe(`a presence room's roster${insecureName ? ', on a non-secure origin' : ''}`, () => {
    let web: RunningWebClient;
    test.beforeAll(async () => {
      web = await startWebClient({ presence: true, insecureName });
    });
    test.afterAll(async () => web.close());

    test('two pages see each other within 2 s, and a page that leaves is gone within 5 s', async ({
      browser,
    }) => {
      const first = await page(browser, web);
      const second = await page(browser, web);
      await expect(online(first)).toHaveCount(1, { timeout: JOIN_SEEN_MS });
      await expect(online(second)).toHaveCount(1, { timeout: JOIN_SEEN_MS });
      await expect(online(first)).toHaveAttribute('data-kind', 'browser');
      await expect(online(first)).toContainText('Browser');

      await peers.splice(peers.indexOf(second), 1)[0]?.close();
      await expect(tiles(first)).toHaveCount(0, { timeout: LEAVE_GONE_MS });
      await expect(first.page.getByTestId('nearby')).toContainText('Nobody else is here yet.');
    });

    test('a CLI waiting for devices is seen within 2 s, and gone within 5 s once it stops', async ({
      browser,
    }) => {
      const first = await page(browser, web);
      const second = await page(browser, web);
      // Named by its host name, the CLI's default; its kind tells it apart from the pages.
      const cli = new ChildProgram(CLI, ['receive', '--listen', '--server', web.serverUrl]);
      programs.push(cli);
      // The program's own start is not the join: the clock starts once it says it waits.
      await cli.waitForLine(/^Waiting/, TRANSFER_TIMEOUT_MS);
      for (const peer of [first, second]) {
        const box = online(peer).and(peer.page.locator('[data-kind="cli"]'));
        await expect(box).toContainText('Command line', { timeout: JOIN_SEEN_MS });
      }
      await cli.stop();
      for (const peer of [first, second]) {
        await expect(tiles(peer).and(peer.page.locator('[data-kind="cli"]'))).toHaveCount(0, {
          timeout: LEAVE_GONE_MS,
        });
      }
    });

    test('choosing a device sends a 3-file batch with no code, byte-identical and verified', async ({
      browser,
    }) => {
      const batch = ['a/one.bin', 'a/two.bin', 'a/three.bin'].map((path, index) =>
        randomFile(files.path, `${insecureName}/${path}`, 200_000 * (index + 1)),
      );
      const sender = await page(browser, web);
      const receiver = await page(browser, web);
      const chooser = sender.page.waitForEvent('filechooser');
      await sender.page.getByRole('button', { name: 'Choose files' }).click();
      await (await chooser).setFiles(batch);
      await online(sender).click({ timeout: JOIN_SEEN_MS });

      await expect(sender.page.getByTestId('transfer-code')).toHaveCount(0);
      await expect(receiver.offer).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
      await expect(receiver.page.locator('.verification-words')).toBeVisible();
      await receiver.accept();
      expect(await receiver.done()).toContain('3 files');
      expect(await sender.done()).toContain('arrived on the other device');
      const saved = await receiver.savedDownloads(3);
      expect(Object.fromEntries(saved.map((path) => [basename(path), sha256(path)]))).toEqual(
        Object.fromEntries(batch.map((path) => [basename(path), sha256(path)])),
      );
    });
  });
}

test.describe('a server without PRESENCE', () => {
  let web: RunningWebClient;
  test.beforeAll(async () => {
    web = await startWebClient();
  });
  test.afterAll(async () => web.close());

  test('lists nobody: a seat is refused, and no page shows a Nearby section', async ({
    browser,
  }) => {
    const first = await page(browser, web);
    const second = await page(browser, web);
    const refused = await openNativePresence(web.serverUrl)(
      { name: 'build-box', kind: 'cli' },
      new AbortController().signal,
    );
    expect(refused).toBeUndefined();
    await expect(first.page.getByTestId('nearby')).toHaveCount(0);
    await expect(second.page.getByTestId('nearby')).toHaveCount(0);
  });
});
