import { expect, test } from '@playwright/test';
import { basename, join } from 'node:path';
import { requireTool } from './support/required-tools';
import {
  launchWithHostAddresses,
  openPeer,
  type PeerOptions,
} from './support/web-client/browser-peers';
import { digestChosenFolder } from './support/web-client/chosen-folder';
import type { FerryPage } from './support/web-client/ferry-page';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

const MiB = 1024 * 1024;

let web: RunningWebClient;
let files: ReturnType<typeof scratchDir>;
/** Large enough that a cancel lands mid-transfer. */
let big: string;
const peers: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  files = scratchDir('b2b');
  big = randomFile(files.path, 'big/movie.mkv', 96 * MiB);
});
test.afterAll(async () => {
  await web.close();
  files.remove();
});
test.afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

test.describe('browser to browser (both Chromium, host addresses hidden behind mDNS)', () => {
  async function peer(browser: Parameters<typeof openPeer>[0], options?: PeerOptions) {
    const opened = await openPeer(browser, web.url, options);
    peers.push(opened);
    return opened;
  }

  test('files arrive byte-identical as streamed downloads, an empty one included', async ({
    browser,
  }) => {
    const notes = randomFile(files.path, 'one/notes.bin', 1_234_567);
    const empty = randomFile(files.path, 'one/empty.txt', 0);
    const sender = await peer(browser);
    const receiver = await peer(browser);

    const code = await sender.send([notes, empty]);
    expect(code).toMatch(/^[a-z]+(-[a-z]+){2,3}$/);
    await receiver.receive(code);
    expect(await receiver.saveTo()).toBe('Your browser’s downloads');
    await receiver.accept();

    expect(await receiver.done()).toContain('2 files');
    expect(await sender.done()).toContain('arrived on the other device');
    const saved = await receiver.savedDownloads(2);
    expect(Object.fromEntries(saved.map((path) => [basename(path), sha256(path)]))).toEqual({
      'notes.bin': sha256(notes),
      'empty.txt': sha256(empty),
    });
  });

  test('a folder keeps its relative paths into a chosen folder, 32 MiB through flow control', async ({
    browser,
  }) => {
    const folder = join(files.path, 'album');
    randomFile(folder, 'big.raw', 32 * MiB);
    randomFile(folder, 'raw/2024/one.cr2', 300_000);
    randomFile(folder, 'notes/readme.md', 4096);
    const sender = await peer(browser);
    const receiver = await peer(browser, { choosesFolder: true });

    const code = await sender.sendFolder(folder);
    await receiver.receive(code);
    await receiver.changeFolder();
    await expect(receiver.page.getByText('Received', { exact: true })).toBeVisible();
    await receiver.accept();

    expect(await receiver.done()).toContain('3 files');
    expect(await sender.done()).toContain('arrived on the other device');
    const expected = Object.fromEntries(
      Object.entries(digestTree(folder)).map(([path, digest]) => [`album/${path}`, digest]),
    );
    expect(await digestChosenFolder(receiver.page)).toEqual(expected);
  });

  test('a receiver that declines: it shows the decline, the sender learns it was declined', async ({
    browser,
  }) => {
    const sender = await peer(browser);
    const receiver = await peer(browser);
    const code = await sender.send([randomFile(files.path, 'decline/a.bin', 1000)]);
    await receiver.receive(code);
    await receiver.decline();
    await expect(await receiver.ended('Transfer declined')).toContainText(
      'You declined the files.',
    );
    await sender.ended('Declined by the other person');
  });

  test('a sender that cancels mid-transfer: both stop, nothing is kept', async ({ browser }) => {
    const sender = await peer(browser);
    const receiver = await peer(browser);
    const code = await sender.send([big]);
    await receiver.receive(code);
    await receiver.accept();
    await sender.transferring();
    await sender.cancel();
    await sender.ended('Transfer stopped');
    await receiver.ended('Stopped by the other person');
    expect(await receiver.savedDownloads(1)).toEqual([]);
  });

  test('a receiver that cancels mid-transfer: both stop', async ({ browser }) => {
    const sender = await peer(browser);
    const receiver = await peer(browser);
    const code = await sender.send([big]);
    await receiver.receive(code);
    await receiver.accept();
    await receiver.transferring();
    await receiver.cancel();
    await receiver.ended('Transfer stopped');
    await sender.ended('Stopped by the other person');
    expect(await receiver.savedDownloads(1)).toEqual([]);
  });

  test('a version mismatch: the outdated page is told to refresh, the other to update its peer', async ({
    browser,
  }) => {
    const sender = await peer(browser, { peerVersion: { pv: 2, pvMin: 2 } });
    const receiver = await peer(browser);
    const code = await sender.send([randomFile(files.path, 'versions/a.bin', 1000)]);
    await receiver.receive(code);
    const outdated = await receiver.failure();
    expect(outdated).toContain('Incompatible versions');
    expect(outdated).toContain('refresh this page to load the latest Ferry');
    const newer = await sender.failure();
    expect(newer).toContain('Incompatible versions');
    expect(newer).toContain('Ferry must be updated on the other device');
  });

  test('connects when one Chromium shows its host addresses and the other hides them', async ({
    browser,
  }) => {
    const showing = await launchWithHostAddresses();
    try {
      const sender = await peer(showing);
      const receiver = await peer(browser);
      const file = randomFile(files.path, 'mdns/a.bin', 2 * MiB);
      const code = await sender.send([file]);
      await receiver.receive(code);
      await receiver.accept();
      await receiver.done();
      const [saved] = await receiver.savedDownloads(1);
      expect(sha256(saved)).toBe(sha256(file));
    } finally {
      await Promise.all(peers.splice(0).map((opened) => opened.close()));
      await showing.close();
    }
  });
});
