import { mkdirSync, mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Browser as Firefox } from 'puppeteer-core';
import { requireTool } from './support/required-tools';
import { FirefoxPage, launchFirefox } from './support/web-client/firefox-page';
import { commandLine, sendStriped } from './support/web-client/native-peers';
import { usePageRig, wordsOn } from './support/web-client/page-rig';
import { randomFile, sha256 } from './support/web-client/test-files';

// The web client in Firefox ESR (stock Debian build, WebDriver BiDi through puppeteer-core),
// both ways with the command line and with Chromium: each transfer arrives byte-identical, and
// both sides show the same verification words, derived from one connection by two different
// WebRTC stacks (docs/protocol.md, "Verification words").
const firefoxPath = requireTool('firefox');

const WORDS_LINE =
  /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/m;
const THREE_WORDS = /^[a-z]+ [a-z]+ [a-z]+$/;
const MiB = 1024 * 1024;

const rig = usePageRig('firefox');
let firefox: Firefox | undefined;
const firefoxPages: FirefoxPage[] = [];

/**
 * A Firefox page of the web client in a context of its own, closed after the test. Firefox
 * starts on first use, not in beforeAll, so that without it the tests skip (or, under CI=true,
 * fail with requireTool's reason) before anything tries to launch it.
 */
async function firefoxPeer(): Promise<FirefoxPage> {
  if (firefoxPath === undefined) throw new Error('Firefox ESR is not available');
  firefox ??= await launchFirefox(firefoxPath);
  const page = await FirefoxPage.open(firefox, rig.web.url);
  firefoxPages.push(page);
  return page;
}

test.afterEach(async () => {
  await Promise.all(firefoxPages.splice(0).map((page) => page.close()));
});
test.afterAll(async () => {
  await firefox?.close();
  firefox = undefined;
});

/** A fresh folder for the CLI to receive into. */
function destination(name: string): string {
  mkdirSync(join(rig.scratch.path, 'received'), { recursive: true });
  return mkdtempSync(join(rig.scratch.path, 'received', `${name}-`));
}

test.describe('Firefox and the command line', () => {
  test('CLI → Firefox: a streamed download, byte-identical, the same words', async () => {
    const file = randomFile(rig.scratch.path, 'cli-to-firefox/report.pdf', 5 * MiB + 17);
    const sending = await commandLine.send(rig.web.url, [file]);
    const receiver = await firefoxPeer();
    await receiver.receive(sending.code);

    const shown = await receiver.words();
    expect(shown).toMatch(THREE_WORDS);
    await receiver.accept();

    expect(await receiver.done()).toContain('1 file');
    const sent = await sending.finished();
    expect(sent.exitCode).toBe(0);
    expect(WORDS_LINE.exec(sent.output)?.[1]).toBe(shown);
    const saved = await receiver.savedDownload(basename(file), 5 * MiB + 17);
    expect(sha256(saved)).toBe(sha256(file));
  });

  test('striping native sender → Firefox: over lanes Firefox answered, byte-identical', async () => {
    const size = 24 * MiB + 5;
    const file = randomFile(rig.scratch.path, 'lanes-to-firefox/film.mov', size);
    const sending = await sendStriped(rig.web.url, [file]);
    const receiver = await firefoxPeer();
    await receiver.receive(sending.code);
    await receiver.accept();

    // Each lane's channel is negotiated, which Firefox creates itself (docs/protocol.md, "Lanes").
    expect(await sending.striped()).toBe('1,2,3');
    expect(await receiver.done()).toContain('1 file');
    const sent = await sending.finished();
    expect(sent.output).toContain('Done: confirmed true, verified true');
    const saved = await receiver.savedDownload(basename(file), size);
    expect(sha256(saved)).toBe(sha256(file));
  });

  test('Firefox → CLI: byte-identical, the waiting page and the asking CLI show the same words', async () => {
    const file = randomFile(rig.scratch.path, 'firefox-to-cli/photo.heic', 3 * MiB + 5);
    const sender = await firefoxPeer();
    const code = await sender.send([file]);
    const into = destination('from-firefox');
    const receiving = commandLine.receive(rig.web.url, code, { destination: into, ask: true });
    await receiving.offered();

    const shown = await sender.words();
    expect(shown).toMatch(THREE_WORDS);
    receiving.answer(true);

    const received = await receiving.finished();
    expect(received.exitCode).toBe(0);
    expect(WORDS_LINE.exec(received.output)?.[1]).toBe(shown);
    expect(await sender.done()).toContain('arrived on the other device');
    expect(sha256(join(into, basename(file)))).toBe(sha256(file));
  });
});

test.describe('Firefox and Chromium', () => {
  requireTool('chromium');

  test('Chromium → Firefox: byte-identical, the same words on both pages', async ({ browser }) => {
    const file = randomFile(rig.scratch.path, 'chromium-to-firefox/map.png', 2 * MiB + 3);
    const sender = await rig.browserPeer(browser);
    const receiver = await firefoxPeer();
    const code = await sender.send([file]);
    await receiver.receive(code);

    const asked = await receiver.words();
    const waiting = await wordsOn(sender);
    expect(asked).toMatch(THREE_WORDS);
    expect(waiting).toBe(asked);
    await receiver.accept();

    expect(await receiver.done()).toContain('1 file');
    expect(await sender.done()).toContain('arrived on the other device');
    const saved = await receiver.savedDownload(basename(file), 2 * MiB + 3);
    expect(sha256(saved)).toBe(sha256(file));
  });

  test('Firefox → Chromium: byte-identical, the same words on both pages', async ({ browser }) => {
    const file = randomFile(rig.scratch.path, 'firefox-to-chromium/notes.bin', 2 * MiB + 11);
    const sender = await firefoxPeer();
    const receiver = await rig.browserPeer(browser);
    const code = await sender.send([file]);
    await receiver.receive(code);

    const asked = await wordsOn(receiver);
    const waiting = await sender.words();
    expect(asked).toMatch(THREE_WORDS);
    expect(waiting).toBe(asked);
    await receiver.accept();

    expect(await receiver.done()).toContain('1 file');
    expect(await sender.done()).toContain('arrived on the other device');
    const [saved] = await receiver.savedDownloads(1);
    expect(sha256(saved)).toBe(sha256(file));
  });
});
