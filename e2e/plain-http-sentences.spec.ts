import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// A page opened over plain HTTP says what it cannot do, of itself, and what would lift it
// (docs/architecture.md, "Pages on plain HTTP"); a secure page says nothing of it.

const SAVING =
  'This page was opened over plain HTTP, so the browser does not let it save into a folder you choose, nor stream downloads to disk as they arrive. Opened over https or from localhost it may; the Ferry desktop app always can.';
const NOTIFYING =
  'This page was opened over plain HTTP, so the browser does not let it notify you while it is out of sight. Opened over https or from localhost it may; the Ferry desktop app always can.';

let room: RunningWebClient;
let files: ReturnType<typeof scratchDir>;
const peers: FerryPage[] = [];

test.beforeAll(async () => {
  room = await startWebClient({ insecureName: true });
  files = scratchDir('plain-http-sentences');
});
test.afterAll(async () => {
  await room.close();
  files.remove();
});
test.afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

test('a plain-HTTP page says what it cannot do, and a secure page says nothing of it', async ({
  browser,
}) => {
  const plain = await openPeer(browser, room.url);
  const secure = await openPeer(browser, room.serverUrl);
  peers.push(plain, secure);
  expect(await plain.page.evaluate(() => window.isSecureContext)).toBe(false);
  const file = randomFile(files.path, 'to-plain/photo.jpg', 64 * 1024);

  const code = await secure.send([file]);
  await expect(secure.page.getByTestId('plain-http-limits')).toHaveCount(0);
  await plain.receive(code);
  await expect(plain.offer).toBeVisible();
  await expect(plain.page.getByTestId('plain-http-limits')).toHaveText(SAVING);
  await plain.accept();
  const [saved] = await plain.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(file));

  // Sending, the wait is where a notification would have called the person back.
  const sender = await openPeer(browser, room.url);
  peers.push(sender);
  await sender.send([randomFile(files.path, 'from-plain/note.txt', 1024)]);
  await expect(sender.page.getByTestId('plain-http-limits')).toHaveText(NOTIFYING);
});
