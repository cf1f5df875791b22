import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import type { Browser as Firefox } from 'puppeteer-core';
import {
  startManInTheMiddle,
  startRewritingRelay,
  type ManInTheMiddle,
  type RewritingRelay,
} from '../src-main/engine/test-support/man-in-the-middle';
import { addSecondFingerprint } from '../src-main/engine/test-support/second-fingerprint';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { FirefoxPage, launchFirefox } from './support/web-client/firefox-page';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig, wordsOn } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

// docs/protocol.md, "Connection requirement": whoever can rewrite signaling (the server's
// operator, anyone on the path of a plain-HTTP LAN room) is met by a page in Chromium and in
// Firefox ESR. A description listing a second certificate is refused before it is applied, and a
// middle that terminates DTLS with its own certificate shows other words than the real peer, and
// cannot pass the secret link. Firefox matters most: it would complete DTLS with any listed line.
// The native peer goes through the relay; the page talks to the real server directly.
const WORDS_LINE =
  /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/m;
const TWO_FINGERPRINTS =
  "The other device's connection named more than one certificate; someone may be intercepting this connection";
const INTERCEPTED = /someone may be intercepting this connection/i;

const rig = usePageRig('two-fingerprints');
let relay: RewritingRelay | undefined;
let middle: ManInTheMiddle | undefined;

test.afterEach(async () => {
  await relay?.close();
  await middle?.close();
  relay = undefined;
  middle = undefined;
});

/** The web client in one browser, through its visible controls, as these tests need it. */
interface PageUnderTest {
  send(paths: string[]): Promise<string>;
  receive(code: string): Promise<void>;
  /** Receives with the code and key its address carries (a receive link). */
  receiveFromLink(): Promise<void>;
  words(): Promise<string>;
  decline(): Promise<void>;
  /** The failure the page shows, once it shows one. */
  alert(): Promise<string>;
  /** Files the page has saved or started saving. */
  downloads(): number;
}

function chromiumPage(page: FerryPage): PageUnderTest {
  return {
    send: (paths) => page.send(paths),
    receive: (code) => page.receive(code),
    receiveFromLink: () => page.page.getByRole('button', { name: 'Receive', exact: true }).click(),
    words: () => wordsOn(page),
    decline: () => page.decline(),
    alert: () => page.failure(),
    downloads: () => page.downloadsStarted,
  };
}

function firefoxPage(page: FirefoxPage): PageUnderTest {
  const text = async (selector: string): Promise<string> => {
    const found = await page.page.waitForSelector(selector, { visible: true });
    return (await found?.evaluate((element) => element.textContent)) ?? '';
  };
  return {
    send: (paths) => page.send(paths),
    receive: (code) => page.receive(code),
    receiveFromLink: () => page.page.locator('form.receive-form button[type=submit]').click(),
    words: () => page.words(),
    async decline() {
      await page.page.waitForSelector('::-p-text(Incoming files)', { visible: true });
      await page.page.locator('button::-p-text(Decline)').click();
    },
    alert: () => text('[role=alert]'),
    downloads: () => readdirSync(page.downloads).length,
  };
}

/** A fresh folder for the command line to receive into. */
function destination(name: string): string {
  mkdirSync(join(rig.scratch.path, 'received'), { recursive: true });
  return mkdtempSync(join(rig.scratch.path, 'received', `${name}-`));
}

/** The cases, run once per browser: `open` gives a page of the web client at `path`. */
function cases(open: (path?: string) => Promise<PageUnderTest>): void {
  test('an offer with a second a=fingerprint line is refused before it is applied', async () => {
    relay = await startRewritingRelay(rig.web.url, addSecondFingerprint('offer'));
    const file = randomFile(rig.scratch.path, 'two-prints-offer/plan.txt', 4096);
    const sending = await commandLine.send(relay.url, [file]);
    const receiver = await open();
    await receiver.receive(sending.code);

    expect(await receiver.alert()).toContain(TWO_FINGERPRINTS);
    await sending.cancel();
    expect(receiver.downloads()).toBe(0);
  });

  test('an answer with a second a=fingerprint line is refused before it is applied', async () => {
    relay = await startRewritingRelay(rig.web.url, addSecondFingerprint('answer'));
    const file = randomFile(rig.scratch.path, 'two-prints-answer/plan.txt', 4096);
    const sender = await open();
    const code = await sender.send([file]);
    const into = destination('two-prints-answer');
    const receiving = commandLine.receive(relay.url, code, { destination: into, ask: false });

    expect(await sender.alert()).toContain(TWO_FINGERPRINTS);
    await receiving.cancel();
    expect(readdirSync(into)).toEqual([]);
  });

  test('the first-line bypass: a middle listing the real sender’s certificate before its own is refused', async () => {
    middle = await startManInTheMiddle(rig.web.url, { listGenuineFirst: true });
    const file = randomFile(rig.scratch.path, 'mitm-bypass/plan.txt', 4096);
    const sending = await commandLine.send(middle.url, [file]);
    const receiver = await open(`/#receive=${sending.code}&key=${sending.key ?? ''}`);
    await receiver.receiveFromLink();

    expect(await receiver.alert()).toContain(TWO_FINGERPRINTS);
    await sending.cancel();
    expect(receiver.downloads()).toBe(0);
  });

  test('a middle with its own certificate: the page and the real sender show different words', async () => {
    middle = await startManInTheMiddle(rig.web.url);
    const file = randomFile(rig.scratch.path, 'mitm-words/plan.txt', 4096);
    const sending = await commandLine.send(middle.url, [file]);
    const receiver = await open();
    await receiver.receive(sending.code);

    const shown = await receiver.words();
    await receiver.decline();
    const sent = await sending.finished();
    const printed = WORDS_LINE.exec(sent.output)?.[1];
    expect(shown).toMatch(/^[a-z]+ [a-z]+ [a-z]+$/);
    expect(printed, sent.output).toMatch(/^[a-z]+ [a-z]+ [a-z]+$/);
    expect(printed).not.toBe(shown);
    expect(receiver.downloads()).toBe(0);
  });

  test('a middle with its own certificate, a page holding the link key: stopped, nothing saved', async () => {
    middle = await startManInTheMiddle(rig.web.url);
    const file = randomFile(rig.scratch.path, 'mitm-link/plan.txt', 4096);
    const sending = await commandLine.send(middle.url, [file]);
    expect(sending.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const receiver = await open(`/#receive=${sending.code}&key=${sending.key ?? ''}`);
    await receiver.receiveFromLink();

    // ERR_LINK_MISMATCH, shown as it stands: the middle's one certificate passed the refusal.
    const shown = await receiver.alert();
    expect(shown).toMatch(INTERCEPTED);
    expect(shown).not.toContain('more than one certificate');
    const sent = await sending.finished();
    expect(sent.exitCode).not.toBe(0);
    expect(sent.output).not.toMatch(/^Delivered /m);
    expect(receiver.downloads()).toBe(0);
  });
}

test.describe('Chromium', () => {
  requireTool('chromium');
  let browser: Browser | undefined;
  test.beforeEach(({ browser: launched }) => {
    browser = launched;
  });
  cases(async (path) => {
    if (browser === undefined) throw new Error('Chromium did not start');
    return chromiumPage(await rig.browserPeer(browser, path));
  });
});

test.describe('Firefox ESR', () => {
  const firefoxPath = requireTool('firefox');
  let firefox: Firefox | undefined;
  const pages: FirefoxPage[] = [];
  test.afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
  });
  test.afterAll(async () => {
    await firefox?.close();
    firefox = undefined;
  });
  // Firefox starts on first use, so that without it the tests skip before any launch.
  cases(async (path = '') => {
    if (firefoxPath === undefined) throw new Error('Firefox ESR is not available');
    firefox ??= await launchFirefox(firefoxPath);
    const page = await FirefoxPage.open(firefox, `${rig.web.url}${path}`);
    pages.push(page);
    return firefoxPage(page);
  });
});
