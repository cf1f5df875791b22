import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { sendStriped } from './support/web-client/native-peers';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// The web client answers a native sender's lanes (docs/protocol.md, "Lanes"): over a long path one
// SCTP association into Chromium stalls near 1–2 MiB/s (docs/performance.md, "The browser side").

const MiB = 1024 * 1024;

let web: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  scratch = scratchDir('lanes');
});
test.afterAll(async () => {
  await web.close();
  scratch.remove();
});
test.afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

test('native → browser over lanes: striped over four connections, byte-identical and verified', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'striped/film.mov', 24 * MiB + 5);
  const sending = await sendStriped(web.url, [file]);
  const receiver = await openPeer(browser, web.url);
  pages.push(receiver);
  await receiver.receive(sending.code);
  await receiver.accept();

  // The sender stripes only over lanes the page answered and opened.
  expect(await sending.striped()).toBe('1,2,3');
  expect(await receiver.done()).toContain('verified');
  const [saved] = await receiver.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(file));
  const sent = await sending.finished();
  expect(sent.exitCode).toBe(0);
  expect(sent.output).toContain('Done: confirmed true, verified true');
});
