import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { IN_MEMORY_WARNING_BYTES } from '../src-shared/protocol/limits';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig } from './support/web-client/page-rig';
import { chromiumProcesses, sampleTabMemory } from './support/web-client/tab-memory';
import { digestTree, randomFile, sha256 } from './support/web-client/test-files';

requireTool('chromium');

/**
 * A page on http://ferry-lan.test:<port>: no secure context, so no service worker and no streamed
 * downloads (src-renderer/backend/browser/README.md, "Where received files go"), as a phone on a
 * LAN room's plain-HTTP address. Native peers and the localhost page use the loopback address.
 */
const rig = usePageRig('plain-http', { insecureName: true });

const MiB = 1024 * 1024;
/** The large file; FERRY_E2E_BIG_MIB=1024 measures the 1 GiB case of docs/performance.md. */
const BIG_BYTES = Number(process.env.FERRY_E2E_BIG_MIB ?? 400) * MiB;
/** A large transfer on two shared cores takes minutes, hashing on both sides included. */
const BIG_TRANSFER_TIMEOUT_MS = 540_000;

const localPages: FerryPage[] = [];
test.afterEach(async () => {
  await Promise.all(localPages.splice(0).map((page) => page.close()));
});

/** A page on localhost, a secure context with streamed downloads. */
async function localhostPage(browser: Browser): Promise<FerryPage> {
  const page = await openPeer(browser, rig.web.serverUrl);
  localPages.push(page);
  expect(await page.page.evaluate(() => window.isSecureContext)).toBe(true);
  return page;
}

/** The plain-HTTP page, with the renderer processes that appeared when it opened. */
async function plainPage(browser: Browser): Promise<{ peer: FerryPage; renderers: number[] }> {
  const before = new Set(await chromiumProcesses(browser, 'renderer'));
  const peer = await rig.browserPeer(browser);
  const renderers = (await chromiumProcesses(browser, 'renderer')).filter(
    (pid) => !before.has(pid),
  );
  expect(await peer.page.evaluate(() => window.isSecureContext)).toBe(false);
  return { peer, renderers };
}

/** Three levels of folders with files at each level, one with a space in its name. */
function tree3(): string {
  const root = mkdtempSync(join(rig.scratch.path, 'folder-'));
  const folder = join(root, 'tree3');
  randomFile(folder, 'top.txt', 1_000);
  randomFile(folder, 'level1/one.bin', 70_001);
  randomFile(folder, 'level1/level2/two.bin', 300_017);
  randomFile(folder, 'level1/level2/level3/three bis.md', 2_345);
  randomFile(folder, 'level1/level2/level3/empty.txt', 0);
  return folder;
}

/** The big file, made once per test file. */
let big: string | undefined;
function bigFile(): string {
  big ??= randomFile(rig.scratch.path, 'big/large.bin', BIG_BYTES);
  return big;
}

/** Unpacks a saved .zip and checks it holds `folder` under its own name, byte for byte. */
function expectZipOf(zip: string, folder: string): void {
  const unzipped = mkdtempSync(join(rig.scratch.path, 'unzipped-'));
  execFileSync('/usr/bin/unzip', ['-q', zip, '-d', unzipped]);
  const expected = Object.fromEntries(
    Object.entries(digestTree(folder)).map(([path, digest]) => [`tree3/${path}`, digest]),
  );
  expect(digestTree(unzipped)).toEqual(expected);
}

/**
 * Receives a 3-level folder on the plain-HTTP page and checks the .zip it saved. It is named
 * after the folder where the sender listed its files, else after the first name and a count
 * (src-shared/transfer/zip-offer.ts): a sender lists them only to a page that announced
 * capabilities, which a page without WebCrypto does once it hashes in JavaScript.
 */
async function receiveFolderAsZip(receiver: FerryPage, code: string, folder: string) {
  await receiver.receive(code);
  const zip = receiver.page.getByRole('radio', { name: /^One \.zip, folders kept / });
  await expect(zip).toBeChecked({ timeout: 60_000 });
  const label =
    (await receiver.page.locator('.zip-choice label', { has: zip }).textContent()) ?? '';
  const name = /(tree3(?:-and-4-more)?\.zip)$/.exec(label)?.[1];
  expect(name, label).toBeDefined();
  await receiver.accept();
  expect(await receiver.done()).toContain('5 files');
  await expect(receiver.page.getByTestId('saved-to')).toHaveText(
    `Saved to your browser’s downloads as ${name}.`,
  );
  const [saved] = await receiver.savedDownloads(1);
  expect(basename(saved)).toBe(name);
  expect(receiver.downloadsStarted).toBe(1);
  expectZipOf(saved, folder);
}

/**
 * Receives the big file on the plain-HTTP page, warned before Accept, and checks it arrived
 * byte-identical without the tab holding it twice; the peaks are printed as one JSON line.
 */
async function receiveBig(
  browser: Browser,
  receiving: { peer: FerryPage; renderers: number[] },
  code: string,
  from: string,
) {
  const { peer } = receiving;
  await peer.receive(code);
  const saveTo = await peer.saveTo();
  if (BIG_BYTES > IN_MEMORY_WARNING_BYTES) {
    expect(saveTo).toContain('This page was opened over plain HTTP, so');
  }
  const sampling = await sampleTabMemory(browser, peer.page, receiving.renderers);
  await peer.accept();
  await expect(peer.page.getByTestId('transfer-done')).toBeVisible({
    timeout: BIG_TRANSFER_TIMEOUT_MS,
  });
  const peaks = await sampling.stop();
  console.log(
    JSON.stringify({ memory: 'plain-http receive', from, fileBytes: BIG_BYTES, ...peaks }),
  );
  const [saved] = await peer.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(bigFile()));
  // Held once at most, never as chunks and a copy of them.
  expect(peaks.rendererRss).toBeLessThan(1.5 * BIG_BYTES);
}

test.describe('a plain-HTTP page receives', () => {
  test('a 3-level folder from the CLI as one .zip that keeps it', async ({ browser }) => {
    const folder = tree3();
    const { peer } = await plainPage(browser);
    const sending = await commandLine.send(rig.web.serverUrl, [folder]);
    await receiveFolderAsZip(peer, sending.code, folder);
    expect((await sending.finished()).exitCode).toBe(0);
  });

  test('a 3-level folder from a localhost page as one .zip that keeps it', async ({ browser }) => {
    const folder = tree3();
    const { peer } = await plainPage(browser);
    const sender = await localhostPage(browser);
    const code = await sender.sendFolder(folder);
    await receiveFolderAsZip(peer, code, folder);
    expect(await sender.done()).toContain('5 files');
  });

  test('a large file from the CLI, warned, byte-identical and held once', async ({ browser }) => {
    test.setTimeout(BIG_TRANSFER_TIMEOUT_MS + 120_000);
    const receiving = await plainPage(browser);
    const sending = await commandLine.send(rig.web.serverUrl, [bigFile()]);
    await receiveBig(browser, receiving, sending.code, 'CLI');
    expect((await sending.finished()).exitCode).toBe(0);
  });

  test('a large file from a localhost page, warned, byte-identical and held once', async ({
    browser,
  }) => {
    test.setTimeout(BIG_TRANSFER_TIMEOUT_MS + 120_000);
    const receiving = await plainPage(browser);
    const sender = await localhostPage(browser);
    const code = await sender.send([bigFile()]);
    await receiveBig(browser, receiving, code, 'localhost page');
  });
});

test.describe('a plain-HTTP page sends', () => {
  /** Sends `sent`, the folder or the big file, from `peer`; returns the code. */
  async function sentCode(peer: FerryPage, sent: string): Promise<string> {
    return sent === bigFile() ? peer.send([sent]) : peer.sendFolder(sent);
  }

  async function doneOn(peer: FerryPage): Promise<void> {
    await expect(peer.page.getByTestId('transfer-done')).toBeVisible({
      timeout: BIG_TRANSFER_TIMEOUT_MS,
    });
  }

  for (const what of ['folder', 'large file'] as const) {
    test(`a ${what} to the CLI, byte-identical`, async ({ browser }) => {
      test.setTimeout(BIG_TRANSFER_TIMEOUT_MS + 120_000);
      const sent = what === 'folder' ? tree3() : bigFile();
      const { peer } = await plainPage(browser);
      const code = await sentCode(peer, sent);
      const out = mkdtempSync(join(rig.scratch.path, 'cli-out-'));
      const receiving = commandLine.receive(rig.web.serverUrl, code, {
        destination: out,
        ask: false,
      });
      await doneOn(peer);
      expect((await receiving.finished()).exitCode).toBe(0);
      if (what === 'folder') expect(digestTree(join(out, 'tree3'))).toEqual(digestTree(sent));
      else expect(sha256(join(out, basename(sent)))).toBe(sha256(sent));
    });

    test(`a ${what} to a localhost page, byte-identical`, async ({ browser }) => {
      test.setTimeout(BIG_TRANSFER_TIMEOUT_MS + 120_000);
      const sent = what === 'folder' ? tree3() : bigFile();
      const { peer } = await plainPage(browser);
      const receiver = await localhostPage(browser);
      const code = await sentCode(peer, sent);
      await receiver.receive(code);
      await receiver.accept();
      await doneOn(receiver);
      await doneOn(peer);
      const [saved] = await receiver.savedDownloads(1);
      if (what === 'folder') expectZipOf(saved, sent);
      else expect(sha256(saved)).toBe(sha256(sent));
    });
  }
});
