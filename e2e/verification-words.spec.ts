import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { commandLine } from './support/web-client/native-peers';
import { randomFile, sha256 } from './support/web-client/test-files';
import { usePageRig, wordsOn } from './support/web-client/page-rig';

requireTool('chromium');

// docs/protocol.md, "Verification words": a browser peer (RTCPeerConnection, its descriptions'
// fingerprints) and a command-line peer (node-datachannel, its verified remote certificate)
// derive the same three words from one connection, in either direction. The screenshots go to
// reports/ (not tracked).
const WORDS_LINE =
  /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/m;

const rig = usePageRig('words');
const browserPeer = (browser: Browser) => rig.browserPeer(browser);

test('browser → CLI: the waiting browser and the asking CLI show the same words', async ({
  browser,
}) => {
  const file = randomFile(rig.scratch.path, 'to-cli/letter.txt', 4096);
  const sender = await browserPeer(browser);
  const code = await sender.send([file]);
  mkdirSync(join(rig.scratch.path, 'received'), { recursive: true });
  const into = mkdtempSync(join(rig.scratch.path, 'received', 'cli-'));
  const receiving = commandLine.receive(rig.web.url, code, { destination: into, ask: true });
  await receiving.offered();

  const shown = await wordsOn(sender);
  await expect(
    sender.page.getByRole('heading', { name: /^Waiting for .+ to accept$/ }),
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
  const file = randomFile(rig.scratch.path, 'to-browser/report.pdf', 65_536);
  const sending = await commandLine.send(rig.web.url, [file]);
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
  const file = randomFile(rig.scratch.path, 'by-link/plan.txt', 8192);
  const sending = await commandLine.send(rig.web.url, [file]);
  expect(sending.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const receiver = await rig.browserPeer(browser, `/#receive=${sending.code}&key=${sending.key}`);
  await expect(receiver.page.getByRole('combobox', { name: 'Code' })).toHaveValue(sending.code);
  // The key was read and then taken out of the address bar and this history entry.
  expect(new URL(receiver.page.url()).hash).toBe('');
  expect(receiver.page.url()).not.toContain(sending.key);
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
  const file = randomFile(rig.scratch.path, 'between-pages/map.png', 32_768);
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
