import { mkdirSync, mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test, type Browser, type Locator } from '@playwright/test';
import type { Browser as Firefox } from 'puppeteer-core';
import { EXIT } from '../src-main/cli/exit-codes';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { FirefoxPage, launchFirefox } from './support/web-client/firefox-page';
import { commandLine } from './support/web-client/native-peers';
import { wordsOn } from './support/web-client/page-rig';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

// A page opened over plain http on a name that is not loopback (as a phone opens the LAN room) is
// no secure context: no `crypto.subtle`. It hashes with JavaScript instead (docs/architecture.md,
// "Hashing") and so offers every extension a secure page does (docs/protocol.md, "Capabilities"):
// the verification words, the file list, per-file verification, the named decline. Each is checked
// against the CLI and against a page on loopback (a secure context) of the same server, both ways.
requireTool('chromium');

const WORDS_LINE =
  /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/m;
const THREE_WORDS = /^[a-z]+ [a-z]+ [a-z]+$/;
const MiB = 1024 * 1024;

let room: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  room = await startWebClient({ insecureName: true });
  scratch = scratchDir('plain-http');
});
test.afterAll(async () => {
  await room.close();
  scratch.remove();
});
test.afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

/** The web client over plain http at ferry-lan.test: no secure context. */
async function plainPage(browser: Browser): Promise<FerryPage> {
  const page = await openPeer(browser, room.url);
  pages.push(page);
  expect(await page.page.evaluate(() => window.isSecureContext)).toBe(false);
  expect(await page.page.evaluate(() => typeof globalThis.crypto.subtle)).toBe('undefined');
  return page;
}

/**
 * Whether the page hashed in its hash workers (docs/architecture.md, "Hashing"): without WebCrypto
 * the JavaScript SHA-256 runs off the page's thread.
 */
function hashedInWorkers(peer: FerryPage): boolean {
  return peer.page.workers().some((worker) => /\/hash-worker[^/]*\.js$/.test(worker.url()));
}

/** The same server's web client on loopback: a secure context, with WebCrypto. */
async function securePage(browser: Browser): Promise<FerryPage> {
  const page = await openPeer(browser, room.serverUrl);
  pages.push(page);
  expect(await page.page.evaluate(() => window.isSecureContext)).toBe(true);
  return page;
}

/** Three files, one of them over two verification blocks, in a folder of their own. */
function batch(label: string): string[] {
  return [
    randomFile(scratch.path, `${label}/minutes.txt`, 4096),
    randomFile(scratch.path, `${label}/budget.ods`, 70_000),
    randomFile(scratch.path, `${label}/recording.ogg`, 9 * MiB + 3),
  ];
}

/** A fresh folder for the CLI to receive into. */
function destination(name: string): string {
  mkdirSync(join(scratch.path, 'received'), { recursive: true });
  return mkdtempSync(join(scratch.path, 'received', `${name}-`));
}

/** The prompt names every file of the batch, with nothing left unlisted. */
async function expectListed(receiver: FerryPage, files: string[]): Promise<void> {
  await expect(receiver.offer).toBeVisible({ timeout: 60_000 });
  const offered = receiver.page.getByRole('list', { name: 'Offered files' });
  for (const file of files) await expect(offered).toContainText(basename(file));
  await expect(receiver.page.getByText(/did not list/)).toHaveCount(0);
}

/** The done screen lists every file, each marked "verified". */
async function expectEveryFileVerified(peer: FerryPage, files: string[]): Promise<void> {
  await peer.done();
  const list: Locator = peer.page.getByRole('list', { name: /^(Received|Delivered) files$/ });
  const rows = list.getByRole('listitem');
  await expect(rows).toHaveCount(files.length);
  for (const file of files) {
    await expect(rows.filter({ hasText: basename(file) })).toContainText('verified');
    await expect(rows.filter({ hasText: basename(file) })).not.toContainText('not verified');
  }
}

test.describe('a plain-http page and the CLI', () => {
  test('page → CLI: the CLI’s Verify: line, every file verified on both sides', async ({
    browser,
  }) => {
    const files = batch('page-to-cli');
    const sender = await plainPage(browser);
    const code = await sender.send(files);
    const into = destination('from-page');
    const receiving = commandLine.receive(room.serverUrl, code, { destination: into, ask: true });
    await receiving.offered();

    const shown = await wordsOn(sender);
    expect(shown).toMatch(THREE_WORDS);
    receiving.answer(true);

    const received = await receiving.finished();
    expect(received.exitCode, received.output).toBe(0);
    expect(WORDS_LINE.exec(received.output)?.[1]).toBe(shown);
    // The CLI's prompt listed every file, and it checked each one's digest.
    const prompt = /^Incoming: 3 files[^\n]*\n((?: {2}[^\n]*\n)+)Verify:/m.exec(received.output);
    const verified = received.output.split('\n').filter((line) => line.endsWith(' (verified)'));
    for (const file of files) {
      const name = basename(file);
      expect(prompt?.[1]).toContain(`  ${name} (`);
      expect(verified).toContain(`  ${name} (verified)`);
      expect(sha256(join(into, name))).toBe(sha256(file));
    }
    await expectEveryFileVerified(sender, files);
    expect(hashedInWorkers(sender)).toBe(true);
  });

  test('CLI → page: the prompt lists every file, the same words, every file verified', async ({
    browser,
  }) => {
    const files = batch('cli-to-page');
    const sending = await commandLine.send(room.serverUrl, files);
    const receiver = await plainPage(browser);
    await receiver.receive(sending.code);

    await expectListed(receiver, files);
    const shown = await wordsOn(receiver);
    expect(shown).toMatch(THREE_WORDS);
    await receiver.accept();

    await expectEveryFileVerified(receiver, files);
    expect(hashedInWorkers(receiver)).toBe(true);
    const sent = await sending.finished();
    expect(sent.exitCode, sent.output).toBe(0);
    expect(WORDS_LINE.exec(sent.output)?.[1]).toBe(shown);
    expect(sent.output).toMatch(/^Delivered and verified 3 files/m);
  });

  test('page → CLI declined: named on both sides', async ({ browser }) => {
    const sender = await plainPage(browser);
    const code = await sender.send(batch('page-to-cli-declined'));
    const receiving = commandLine.receive(room.serverUrl, code, {
      destination: destination('declined'),
      ask: true,
    });
    await receiving.offered();
    receiving.answer(false);

    const received = await receiving.finished();
    expect(received.exitCode, received.output).toBe(EXIT.declined);
    await sender.ended('Declined by the other person');
  });

  test('CLI → page declined: named on both sides', async ({ browser }) => {
    const sending = await commandLine.send(room.serverUrl, batch('cli-to-page-declined'));
    const receiver = await plainPage(browser);
    await receiver.receive(sending.code);
    await receiver.decline();

    await expect(await receiver.ended('Transfer declined')).toContainText(
      'You declined the files.',
    );
    const sent = await sending.finished();
    expect(sent.exitCode, sent.output).toBe(EXIT.declined);
    expect(sent.output).toMatch(/^Declined by the other person\.$/m);
  });
});

const PAIRS = [
  ['plain-http page → secure page', plainPage, securePage],
  ['secure page → plain-http page', securePage, plainPage],
] as const;

test.describe('a plain-http page and a secure page', () => {
  for (const [name, openSender, openReceiver] of PAIRS) {
    test(`${name}: the same words, every file listed and verified on both sides`, async ({
      browser,
    }) => {
      const files = batch(name.replaceAll(/\W+/g, '-'));
      const sender = await openSender(browser);
      const receiver = await openReceiver(browser);
      const code = await sender.send(files);
      await receiver.receive(code);

      await expectListed(receiver, files);
      const asked = await wordsOn(receiver);
      expect(asked).toMatch(THREE_WORDS);
      expect(await wordsOn(sender)).toBe(asked);
      await receiver.accept();

      await expectEveryFileVerified(receiver, files);
      await expectEveryFileVerified(sender, files);
    });

    test(`${name}: a decline is named on both sides`, async ({ browser }) => {
      const sender = await openSender(browser);
      const receiver = await openReceiver(browser);
      const code = await sender.send(batch(`${name.replaceAll(/\W+/g, '-')}-declined`));
      await receiver.receive(code);
      await receiver.decline();

      await expect(await receiver.ended('Transfer declined')).toContainText(
        'You declined the files.',
      );
      await sender.ended('Declined by the other person');
    });
  }
});

test.describe('Firefox ESR on a plain-http page', () => {
  const firefoxPath = requireTool('firefox');
  let firefox: Firefox | undefined;
  const firefoxPages: FirefoxPage[] = [];
  test.afterEach(async () => {
    await Promise.all(firefoxPages.splice(0).map((page) => page.close()));
  });
  test.afterAll(async () => {
    await firefox?.close();
  });

  test('CLI → Firefox: the prompt lists every file and shows the CLI’s words', async () => {
    if (firefoxPath === undefined) throw new Error('Firefox ESR is not available');
    // Firefox has no host-resolver flag; this pref makes it resolve the name to loopback itself.
    firefox = await launchFirefox(firefoxPath, {
      'network.dns.localDomains': new URL(room.url).hostname,
    });
    const files = batch('cli-to-firefox');
    const sending = await commandLine.send(room.serverUrl, files);
    const receiver = await FirefoxPage.open(firefox, room.url);
    firefoxPages.push(receiver);
    expect(await receiver.page.evaluate(() => window.isSecureContext)).toBe(false);
    await receiver.receive(sending.code);

    const shown = await receiver.words();
    expect(shown).toMatch(THREE_WORDS);
    const offered = await receiver.page.waitForSelector('[aria-label="Offered files"]');
    const listed = (await offered?.evaluate((element) => element.textContent)) ?? '';
    for (const file of files) expect(listed).toContain(basename(file));
    await receiver.accept();

    expect(await receiver.done()).toContain('Received and verified');
    const sent = await sending.finished();
    expect(sent.exitCode, sent.output).toBe(0);
    expect(WORDS_LINE.exec(sent.output)?.[1]).toBe(shown);
    expect(sent.output).toMatch(/^Delivered and verified 3 files/m);
  });
});
