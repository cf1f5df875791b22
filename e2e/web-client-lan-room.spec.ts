import { expect, test, devices } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { readQrCode } from './support/web-client/qr-reader';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// A phone opening a LAN room: plain HTTP on the LAN address, so not a secure context (no service
// worker, no File System Access, no crypto.randomUUID), on a phone-sized touch screen.
const PHONE = (({ viewport, deviceScaleFactor, isMobile, hasTouch, userAgent }) => ({
  viewport,
  deviceScaleFactor,
  isMobile,
  hasTouch,
  userAgent,
}))(devices['Pixel 7']);

let room: RunningWebClient;
let files: ReturnType<typeof scratchDir>;
const peers: FerryPage[] = [];

test.beforeAll(async () => {
  room = await startWebClient({ lan: true });
  files = scratchDir('lan');
});
test.afterAll(async () => {
  await room.close();
  files.remove();
});
test.afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

test.describe('the LAN room URL on a phone', () => {
  test('receives on the phone, built into a Blob and saved as a download, byte-identical', async ({
    browser,
  }) => {
    const sender = await openPeer(browser, room.url);
    const phone = await openPeer(browser, room.url, PHONE);
    peers.push(sender, phone);
    // As on a real LAN: an address other than loopback over plain HTTP is no secure context.
    expect(await phone.page.evaluate(() => window.isSecureContext)).toBe(false);
    const file = randomFile(files.path, 'to-phone/photo.jpg', 3 * 1024 * 1024);

    const code = await sender.send([file]);
    await phone.receive(code);
    expect(await phone.saveTo()).toContain('saved once the last byte arrives');
    expect(await phone.saveTo()).not.toContain('plain HTTP');
    await phone.accept();

    // Verified end to end by a page without WebCrypto (docs/architecture.md, "Hashing").
    expect(await phone.done()).toContain('Received and verified');
    const [saved] = await phone.savedDownloads(1);
    expect(sha256(saved)).toBe(sha256(file));
  });

  test('the sender’s QR code opens the receive screen from the room’s own address', async ({
    browser,
  }) => {
    const sender = await openPeer(browser, room.url);
    peers.push(sender);
    const file = randomFile(files.path, 'by-qr/note.txt', 4096);
    const code = await sender.send([file]);

    const scanned = await readQrCode(
      sender.page.getByRole('img', { name: 'QR code of a link that receives these files' }),
    );
    // A plain-http page has no WebCrypto, yet proves the secret link all the same (HMAC in
    // JavaScript), so its key rides beside the code (docs/protocol.md, "Secret link").
    expect(scanned).toMatch(
      new RegExp(`^${room.url.replaceAll('.', '\\.')}/#receive=${code}&key=[A-Za-z0-9_-]{22}$`),
    );
    // Reachable: the phone opens it, the code is filled in, and the files come.
    const phone = await openPeer(browser, scanned ?? '', PHONE);
    peers.push(phone);
    await expect(phone.page.getByRole('combobox', { name: 'Code' })).toHaveValue(code);
    await phone.page.getByRole('button', { name: 'Receive', exact: true }).click();
    await expect(phone.offer).toBeVisible({ timeout: 60_000 });
    await expect(phone.page.getByTestId('peer-check')).toHaveText(
      'Verified automatically: the secret link matched',
    );
    await phone.accept();
    const [saved] = await phone.savedDownloads(1);
    expect(sha256(saved)).toBe(sha256(file));
  });

  test('sends from the phone', async ({ browser }) => {
    const phone = await openPeer(browser, room.url, PHONE);
    const receiver = await openPeer(browser, room.url);
    peers.push(phone, receiver);
    const file = randomFile(files.path, 'from-phone/video.mp4', 2 * 1024 * 1024);

    const code = await phone.send([file]);
    await receiver.receive(code);
    await receiver.accept();

    expect(await phone.done()).toMatch(/Delivered and verified.*arrived on the other device/);
    const [saved] = await receiver.savedDownloads(1);
    expect(sha256(saved)).toBe(sha256(file));
  });
});
