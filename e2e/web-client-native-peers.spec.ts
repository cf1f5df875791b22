import { expect, test, type Browser } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { requireTool } from './support/required-tools';
import {
  launchWithHostAddresses,
  openPeer,
  type PeerOptions,
} from './support/web-client/browser-peers';
import { digestChosenFolder } from './support/web-client/chosen-folder';
import type { FerryPage } from './support/web-client/ferry-page';
import {
  commandLine,
  sendFromNewerNativePeer,
  type NativePeerKind,
} from './support/web-client/native-peers';
import { desktopController } from './support/web-client/desktop-controller-peer';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// Every native peer the web client is tested against. Each brings its own transport (the /ws
// WebSocket) into the room the browser joins over the event socket: every test here is a mixed
// room.
const NATIVE_PEERS: readonly NativePeerKind[] = [commandLine, desktopController];

const MiB = 1024 * 1024;

/**
 * What a native receiver keeps of a file cut short by a cancel, now that the browser announces
 * resume: never the file under its final name, only its `.part` and sidecar for a later try
 * (docs/protocol.md, "Resume").
 */
const KEPT_FOR_RESUME = ['movie.mkv.part', 'movie.mkv.part.ferry'];

let web: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
let folder: string;
let big: string;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  scratch = scratchDir('native');
  folder = join(scratch.path, 'album');
  randomFile(folder, 'cover.jpg', 700_000);
  randomFile(folder, 'raw/2024/one.cr2', 3 * MiB + 17);
  randomFile(folder, 'empty.txt', 0);
  big = randomFile(scratch.path, 'big/movie.mkv', 96 * MiB);
});
test.afterAll(async () => {
  await web.close();
  scratch.remove();
});
test.afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

async function browserPeer(browser: Browser, options?: PeerOptions): Promise<FerryPage> {
  const page = await openPeer(browser, web.url, options);
  pages.push(page);
  return page;
}

/** A fresh folder per call: each native peer kind receives into its own, never a used one. */
function destination(name: string): string {
  mkdirSync(join(scratch.path, 'received'), { recursive: true });
  return mkdtempSync(join(scratch.path, 'received', `${name}-`));
}

for (const native of NATIVE_PEERS) {
  test.describe(`mixed room: the web client and the ${native.name}`, () => {
    test(`browser → ${native.name}: two picked files, byte-identical`, async ({ browser }) => {
      const notes = randomFile(scratch.path, 'loose/notes.txt', 12_345);
      const photo = randomFile(scratch.path, 'loose/photo.heic', 2 * MiB + 1);
      const sender = await browserPeer(browser);
      const code = await sender.send([notes, photo]);
      const into = destination('from-browser');
      const receiving = native.receive(web.url, code, { destination: into, ask: false });

      expect((await receiving.finished()).exitCode).toBe(0);
      expect(await sender.done()).toContain('arrived on the other device');
      expect(digestTree(into)).toEqual({
        'notes.txt': sha256(notes),
        'photo.heic': sha256(photo),
      });
    });

    test(`browser → ${native.name}: a picked folder keeps its relative paths`, async ({
      browser,
    }) => {
      const sender = await browserPeer(browser);
      const code = await sender.sendFolder(folder);
      const into = destination('folder-from-browser');
      const receiving = native.receive(web.url, code, { destination: into, ask: false });

      expect((await receiving.finished()).exitCode).toBe(0);
      expect(await sender.done()).toContain('3 files');
      const sent = Object.entries(digestTree(folder)).map(([path, digest]) => [
        `album/${path}`,
        digest,
      ]);
      expect(digestTree(into)).toEqual(Object.fromEntries(sent));
    });

    test(`${native.name} → browser: a folder into a chosen folder, 96 MiB alongside`, async ({
      browser,
    }) => {
      const sending = await native.send(web.url, [folder, big]);
      const receiver = await browserPeer(browser, { choosesFolder: true });
      await receiver.receive(sending.code);
      await receiver.changeFolder();
      await receiver.accept();

      expect(await receiver.done()).toContain('4 files');
      expect((await sending.finished()).exitCode).toBe(0);
      const expected = Object.fromEntries([
        ...Object.entries(digestTree(folder)).map(([path, digest]) => [`album/${path}`, digest]),
        [basename(big), sha256(big)],
      ]);
      expect(await digestChosenFolder(receiver.page)).toEqual(expected);
    });

    test(`${native.name} → browser: a streamed download`, async ({ browser }) => {
      const file = randomFile(scratch.path, 'streamed/report.pdf', 5 * MiB);
      const sending = await native.send(web.url, [file]);
      const receiver = await browserPeer(browser);
      await receiver.receive(sending.code);
      await receiver.accept();

      expect(await receiver.done()).toContain('1 file');
      expect((await sending.finished()).exitCode).toBe(0);
      const [saved] = await receiver.savedDownloads(1);
      expect(sha256(saved)).toBe(sha256(file));
    });

    test(`the browser declines what the ${native.name} sends`, async ({ browser }) => {
      const sending = await native.send(web.url, [folder]);
      const receiver = await browserPeer(browser);
      await receiver.receive(sending.code);
      await receiver.decline();

      // Named on both sides (docs/protocol.md, "Named outcomes"): a choice, not an error.
      await expect(await receiver.ended('Transfer declined')).toContainText(
        'You declined the files.',
      );
      const sender = await sending.finished();
      expect(sender.exitCode).not.toBe(0);
      expect(sender.output).toMatch(/declined by the other person/i);
    });

    test(`the ${native.name} declines what the browser sends`, async ({ browser }) => {
      const sender = await browserPeer(browser);
      const code = await sender.sendFolder(folder);
      const into = destination('declined');
      const receiving = native.receive(web.url, code, { destination: into, ask: true });
      await receiving.offered();
      receiving.answer(false);

      expect((await receiving.finished()).exitCode).not.toBe(0);
      const card = await sender.ended('Declined by the other person');
      await expect(card.getByRole('button', { name: 'Send again' })).toBeVisible();
      expect(digestTree(into)).toEqual({});
    });

    test(`the browser cancels a send to the ${native.name} mid-transfer`, async ({ browser }) => {
      const sender = await browserPeer(browser);
      const code = await sender.send([big]);
      const into = destination('browser-cancelled');
      const receiving = native.receive(web.url, code, { destination: into, ask: false });
      await receiving.transferring();
      await sender.cancel();

      await expect(await sender.ended('Transfer stopped')).toContainText(
        'You stopped the transfer.',
      );
      const received = await receiving.finished();
      expect(received.exitCode).not.toBe(0);
      expect(received.output).toMatch(/stopped by the other person/i);
      expect(Object.keys(digestTree(into)).sort()).toEqual(KEPT_FOR_RESUME);
    });

    test(`the ${native.name} cancels a send to the browser mid-transfer`, async ({ browser }) => {
      const sending = await native.send(web.url, [big]);
      const receiver = await browserPeer(browser);
      await receiver.receive(sending.code);
      await receiver.accept();
      await receiver.transferring();
      await sending.cancel();

      await receiver.ended('Stopped by the other person');
      expect(await receiver.savedDownloads(1)).toEqual([]);
    });

    test(`the browser cancels a receive from the ${native.name} mid-transfer`, async ({
      browser,
    }) => {
      const sending = await native.send(web.url, [big]);
      const receiver = await browserPeer(browser);
      await receiver.receive(sending.code);
      await receiver.accept();
      await receiver.transferring();
      await receiver.cancel();

      await expect(await receiver.ended('Transfer stopped')).toContainText(
        'You stopped the transfer.',
      );
      const sent = await sending.finished();
      expect(sent.exitCode).not.toBe(0);
      expect(sent.output).toMatch(/stopped by the other person/i);
    });

    test(`the ${native.name} cancels a receive from the browser mid-transfer`, async ({
      browser,
    }) => {
      const sender = await browserPeer(browser);
      const code = await sender.send([big]);
      const into = destination('native-cancelled');
      const receiving = native.receive(web.url, code, { destination: into, ask: false });
      await receiving.transferring();
      await receiving.cancel();

      await sender.ended('Stopped by the other person');
      expect(Object.keys(digestTree(into)).sort()).toEqual(KEPT_FOR_RESUME);
    });

    test(`a browser newer than the ${native.name}: the ${native.name} is told how to update`, async ({
      browser,
    }) => {
      const sender = await browserPeer(browser, { peerVersion: { pv: 2, pvMin: 2 } });
      const code = await sender.send([randomFile(scratch.path, 'newer/a.bin', 1000)]);
      const receiving = native.receive(web.url, code, {
        destination: destination('newer-browser'),
        ask: false,
      });

      const outdated = await receiving.finished();
      expect(outdated.exitCode).not.toBe(0);
      expect(outdated.output).toContain(native.updateRemedy);
      const newer = await sender.failure();
      expect(newer).toContain('Incompatible versions');
      expect(newer).toContain('Ferry must be updated on the other device');
    });
  });
}

test.describe('versions and addresses with native peers', () => {
  test('a native peer newer than the browser: the page is told to refresh', async ({ browser }) => {
    const sending = await sendFromNewerNativePeer(web.url, [
      randomFile(scratch.path, 'v2/a.bin', 1000),
    ]);
    const receiver = await browserPeer(browser);
    await receiver.receive(sending.code);

    const outdated = await receiver.failure();
    expect(outdated).toContain('Incompatible versions');
    expect(outdated).toContain('refresh this page to load the latest Ferry');
    expect((await sending.finished()).output).toMatch(/must be updated on the other device/);
  });

  for (const native of NATIVE_PEERS) {
    test(`with its host addresses shown (no mDNS), the browser and the ${native.name} connect both ways`, async () => {
      const showing = await launchWithHostAddresses();
      try {
        const file = randomFile(scratch.path, 'shown/a.bin', 2 * MiB);
        const sender = await openPeer(showing, web.url);
        pages.push(sender);
        const into = destination('shown');
        const receiving = native.receive(web.url, await sender.send([file]), {
          destination: into,
          ask: false,
        });
        expect((await receiving.finished()).exitCode).toBe(0);
        expect(digestTree(into)).toEqual({ 'a.bin': sha256(file) });

        const sending = await native.send(web.url, [file]);
        const receiver = await openPeer(showing, web.url);
        pages.push(receiver);
        await receiver.receive(sending.code);
        await receiver.accept();
        await receiver.done();
        const [saved] = await receiver.savedDownloads(1);
        expect(sha256(saved)).toBe(sha256(file));
      } finally {
        await Promise.all(pages.splice(0).map((page) => page.close()));
        await showing.close();
      }
    });
  }
});
