import { expect, test, type Browser } from '@playwright/test';
import { basename } from 'node:path';
import { connect } from 'node:tls';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// The LAN room served over HTTPS with its own self-signed certificate (docs/architecture.md,
// "The LAN room over HTTPS"): the browser warns once, the person accepts (here the context
// ignores the certificate error), and the page is then a secure context.

let room: RunningWebClient;
let files: ReturnType<typeof scratchDir>;
const peers: FerryPage[] = [];

test.beforeAll(async () => {
  room = await startWebClient({ https: true });
  files = scratchDir('https-room');
});
test.afterAll(async () => {
  await room.close();
  files.remove();
});
test.afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(browser: Browser): Promise<FerryPage> {
  const opened = await openPeer(browser, room.url, { ignoreHTTPSErrors: true });
  peers.push(opened);
  return opened;
}

/** The SHA-256 fingerprint of the certificate the room's TLS server presents. */
function presentedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Not trusting it is the point: the fingerprint is what a person compares.
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.once('error', reject);
  });
}

test('the fingerprint the host prints is the certificate its TLS server presents', async () => {
  expect(room.url).toMatch(/^https:\/\//);
  expect(room.certificateFingerprint).toMatch(/^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/);
  expect(await presentedFingerprint(room.url)).toBe(room.certificateFingerprint);
});

test('page → page over HTTPS: a secure context, several files byte-identical and verified', async ({
  browser,
}) => {
  const notes = randomFile(files.path, 'batch/notes.txt', 12_345);
  const photo = randomFile(files.path, 'batch/photo.heic', 2 * 1024 * 1024 + 1);
  const empty = randomFile(files.path, 'batch/empty.txt', 0);
  const sender = await peer(browser);
  const receiver = await peer(browser);
  for (const page of [sender, receiver]) {
    expect(await page.page.evaluate(() => window.isSecureContext)).toBe(true);
  }

  const code = await sender.send([notes, photo, empty]);
  await receiver.receive(code);
  await receiver.accept();

  expect(await receiver.done()).toContain('verified');
  expect(await sender.done()).toContain('arrived on the other device');
  const saved = await receiver.savedDownloads(3);
  expect(Object.fromEntries(saved.map((path) => [basename(path), sha256(path)]))).toEqual({
    'notes.txt': sha256(notes),
    'photo.heic': sha256(photo),
    'empty.txt': sha256(empty),
  });
});
