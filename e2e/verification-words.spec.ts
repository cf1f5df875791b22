import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// docs/protocol.md, "Verification words": a browser peer (RTCPeerConnection, its descriptions'
// fingerprints) and a command-line peer (node-datachannel, its verified remote certificate)
// derive the same three words from one connection, in either direction. The screenshots go to
// reports/ (not tracked).
const WORDS_LINE =
  /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/m;

let web: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  scratch = scratchDir('words');
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

/** The words a page shows in its verification line, once it shows them. */
async function wordsOn(peer: FerryPage): Promise<string> {
  const words = peer.page.getByTestId('peer-check').locator('.verification-words');
  await expect(words).toBeVisible({ timeout: 60_000 });
  return (await words.textContent()) ?? '';
}

test('browser → CLI: the waiting browser and the asking CLI show the same words', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'to-cli/letter.txt', 4096);
  const sender = await browserPeer(browser);
  const code = await sender.send([file]);
  mkdirSync(join(scratch.path, 'received'), { recursive: true });
  const into = mkdtempSync(join(scratch.path, 'received', 'cli-'));
  const receiving = commandLine.receive(web.url, code, { destination: into, ask: true });
  await receiving.offered();

  const shown = await wordsOn(sender);
  await expect(
    sender.page.getByRole('heading', { name: 'Waiting for the other person' }),
  ).toBeVisible();
  await sender.page.screenshot({ path: 'reports/screenshots/verification-words-sender.png' });
  receiving.answer(true);

  const received = await receiving.finished();
  expect(received.exitCode).toBe(0);
  expect(WORDS_LINE.exec(received.output)?.[1]).toBe(shown);
  expect(await sender.done()).toContain('arrived on the other device');
  expect(sha256(join(into, 'letter.txt'))).toBe(sha256(file));
});

test('CLI → browser: the accept prompt and the sending CLI show the same words', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'to-browser/report.pdf', 65_536);
  const sending = await commandLine.send(web.url, [file]);
  const receiver = await browserPeer(browser);
  await receiver.receive(sending.code);

  const shown = await wordsOn(receiver);
  await expect(receiver.offer).toBeVisible();
  await receiver.page.screenshot({ path: 'reports/screenshots/verification-words-accept.png' });
  await receiver.accept();

  expect(await receiver.done()).toContain('1 file');
  const sent = await sending.finished();
  expect(sent.exitCode).toBe(0);
  expect(WORDS_LINE.exec(sent.output)?.[1]).toBe(shown);
  const [saved] = await receiver.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(file));
});

test('CLI → browser opened from the sender’s link: verified automatically on both sides', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'by-link/plan.txt', 8192);
  const sending = await commandLine.send(web.url, [file]);
  expect(sending.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const receiver = await openPeer(
    browser,
    `${web.url}/#receive=${sending.code}&key=${sending.key}`,
  );
  pages.push(receiver);
  await expect(receiver.page.getByRole('combobox', { name: 'Code' })).toHaveValue(sending.code);
  await receiver.page.getByRole('button', { name: 'Receive', exact: true }).click();

  await expect(receiver.offer).toBeVisible({ timeout: 60_000 });
  await expect(receiver.page.getByTestId('peer-check')).toHaveText(
    'Verified automatically: the secret link matched',
  );
  await receiver.page.screenshot({ path: 'reports/screenshots/secret-link-accept.png' });
  await receiver.accept();

  expect(await receiver.done()).toContain('1 file');
  const sent = await sending.finished();
  expect(sent.exitCode).toBe(0);
  expect(sent.output).toMatch(/^Verify: verified automatically by the secret link$/m);
  const [saved] = await receiver.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(file));
});

test('browser → browser: the waiting page and the asking page show the same words', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'between-pages/map.png', 32_768);
  const sender = await browserPeer(browser);
  const receiver = await browserPeer(browser);
  const code = await sender.send([file]);
  await receiver.receive(code);

  const asked = await wordsOn(receiver);
  const waiting = await wordsOn(sender);
  expect(asked).toMatch(/^[a-z]+ [a-z]+ [a-z]+$/);
  expect(waiting).toBe(asked);
  await receiver.page.screenshot({ path: 'reports/screenshots/verification-words-browsers.png' });
  await receiver.accept();

  expect(await receiver.done()).toContain('1 file');
  expect(await sender.done()).toContain('arrived on the other device');
  const [saved] = await receiver.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(file));
});
