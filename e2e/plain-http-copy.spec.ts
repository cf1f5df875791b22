import { expect, test, type Browser, type Page } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { randomFile, scratchDir } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// Copy and Copy link on a page opened over plain HTTP, which has no navigator.clipboard
// (docs/architecture.md, "Pages on plain HTTP"): the code reaches the clipboard by a selection
// copy, or the page says what to do instead; it never throws.

let room: RunningWebClient;
let files: ReturnType<typeof scratchDir>;
const peers: FerryPage[] = [];

test.beforeAll(async () => {
  room = await startWebClient({ insecureName: true });
  files = scratchDir('plain-http-copy');
});
test.afterAll(async () => {
  await room.close();
  files.remove();
});
test.afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

/** The uncaught errors a page throws from here on. */
function pageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return errors;
}

/**
 * What the browser's clipboard holds, read by a page of the same browser on the loopback
 * address: a secure context, which may read it once allowed to.
 */
async function clipboardOf(peer: FerryPage): Promise<string> {
  const context = peer.page.context();
  await context.grantPermissions(['clipboard-read'], { origin: room.serverUrl });
  const reader = await context.newPage();
  try {
    await reader.goto(room.serverUrl);
    await reader.bringToFront();
    return await reader.evaluate(() => navigator.clipboard.readText());
  } finally {
    await reader.close();
    await peer.page.bringToFront();
  }
}

/** A Ferry page at `url` showing a code, sending one small file. */
async function showingCode(
  browser: Browser,
  url: string,
): Promise<{ peer: FerryPage; code: string }> {
  const peer = await openPeer(browser, url);
  peers.push(peer);
  const code = await peer.send([randomFile(files.path, `${peers.length}/note.txt`, 1024)]);
  return { peer, code };
}

test.describe('Copy on a page opened over plain HTTP', () => {
  test('puts the code and the link on the clipboard by a selection copy, with no page error', async ({
    browser,
  }) => {
    const { peer, code } = await showingCode(browser, room.url);
    const errors = pageErrors(peer.page);
    expect(await peer.page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(await peer.page.evaluate(() => navigator.clipboard === undefined)).toBe(true);

    await peer.page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(peer.page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await clipboardOf(peer)).toBe(code);

    await peer.page.getByRole('button', { name: 'Copy link' }).click();
    await expect(peer.page.getByRole('button', { name: 'Link copied' })).toBeVisible();
    // The secret link's key follows the code where the page holds one (docs/protocol.md, "Secret link").
    const link = new URL(await clipboardOf(peer));
    expect(link.origin).toBe(new URL(room.url).origin);
    expect(link.hash).toMatch(new RegExp(`^#receive=${code}(&key=[\\w-]+)?$`));
    expect(errors).toEqual([]);
  });

  test('says what to do instead when the browser copies nothing, with no page error', async ({
    browser,
  }) => {
    const { peer } = await showingCode(browser, room.url);
    const errors = pageErrors(peer.page);
    // A browser that refuses the selection copy too (execCommand answers false).
    await peer.page.evaluate(() => {
      document.execCommand = () => false;
    });

    await peer.page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(
      peer.page.getByText('Ferry could not copy the code; select the words and copy them instead.'),
    ).toBeVisible();
    await peer.page.getByRole('button', { name: 'Copy link' }).click();
    await expect(
      peer.page.getByText(
        'Ferry could not copy the link; scan the QR code or read out the code instead.',
      ),
    ).toBeVisible();
    await expect(peer.page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test.describe('Copy on a secure page', () => {
  test('puts the code on the clipboard through the clipboard API', async ({ browser }) => {
    const { peer, code } = await showingCode(browser, room.serverUrl);
    const errors = pageErrors(peer.page);
    expect(await peer.page.evaluate(() => window.isSecureContext)).toBe(true);
    await peer.page.context().grantPermissions(['clipboard-write'], { origin: room.serverUrl });
    // Only the clipboard API may copy here: a selection copy would hide a regression.
    await peer.page.evaluate(() => {
      document.execCommand = () => false;
    });

    await peer.page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(peer.page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await clipboardOf(peer)).toBe(code);
    expect(errors).toEqual([]);
  });
});
