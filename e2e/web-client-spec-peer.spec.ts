import { expect, test, type Browser } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specReceive, specSend, type SpecLog } from '../test-peers/spec-peer';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// The web client in Chromium against the strict spec-only native peer (test-peers/spec-peer.ts):
// nothing here shares code with Ferry on the other side, so a behaviour both Ferry peers share
// cannot hide a spec violation. Several rounds each way, never retried.
const ROUNDS = 2;
const MiB = 1024 * 1024;

let web: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  scratch = scratchDir('spec-peer');
});
test.afterAll(async () => {
  await web.close();
  scratch.remove();
});
test.afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

async function browserPeer(browser: Browser): Promise<FerryPage> {
  const page = await openPeer(browser, web.url);
  pages.push(page);
  return page;
}

test('web client → spec peer: a folder arrives whole and the spec peer confirms it', async ({
  browser,
}) => {
  const folder = join(scratch.path, 'album');
  randomFile(folder, 'cover.jpg', 700_000);
  randomFile(folder, 'raw/2024/one.cr2', 3 * MiB + 17);
  randomFile(folder, 'empty.txt', 0);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const sender = await browserPeer(browser);
    const code = await sender.sendFolder(folder);
    const into = join(scratch.path, `spec-received-${round}`);
    const log: SpecLog = [];
    await specReceive({ serverUrl: web.url, code, folder: into, log });

    expect(await sender.done()).toContain('3 files');
    expect(log).toContain('received sent');
    const sent = Object.entries(digestTree(folder)).map(([path, digest]) => [
      `album/${path}`,
      digest,
    ]);
    expect(digestTree(into)).toEqual(Object.fromEntries(sent));
    await sender.close();
    pages.pop();
  }
});

test('spec peer → web client: the offer made the instant the browser joins, a streamed download', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'from-spec/report.pdf', 5 * MiB);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const receiver = await browserPeer(browser);
    let announced!: (code: string) => void;
    const code = new Promise<string>((resolve) => (announced = resolve));
    const sending = specSend({
      serverUrl: web.url,
      files: [{ name: 'report.pdf', bytes: readFileSync(file) }],
      onCode: announced,
    });
    await receiver.receive(await code);
    await receiver.accept();

    await sending;
    expect(await receiver.done()).toContain('1 file');
    const [saved] = await receiver.savedDownloads(1);
    expect(sha256(saved)).toBe(sha256(file));
    await receiver.close();
    pages.pop();
  }
});
