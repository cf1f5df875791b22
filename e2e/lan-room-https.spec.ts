import { expect, test, type Browser } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { connect } from 'node:tls';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import { ChildProgram } from './support/web-client/child-program';
import type { FerryPage } from './support/web-client/ferry-page';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
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

const CLI_TIMEOUT_MS = 120_000;

test('page → CLI over HTTPS: the CLI pins the room’s fingerprint, files byte-identical and verified', async ({
  browser,
}) => {
  const notes = randomFile(files.path, 'to-cli/notes.txt', 54_321);
  const photo = randomFile(files.path, 'to-cli/photo.heic', 3 * 1024 * 1024 + 7);
  const sender = await peer(browser);
  const code = await sender.send([notes, photo]);
  const into = mkdtempSync(join(files.path, 'cli-received-'));
  const fingerprint = room.certificateFingerprint ?? '';
  const cli = new ChildProgram('src-main/cli/main.ts', [
    'receive',
    '--server',
    room.url,
    '--server-certificate',
    fingerprint,
    '--out',
    into,
    '--no-report',
    '--yes',
    code,
  ]);

  expect(await cli.waitForExit(CLI_TIMEOUT_MS)).toBe(0);
  expect(cli.output).toMatch(/^ {2}notes\.txt \(verified\)$/m);
  expect(cli.output).toMatch(/^ {2}photo\.heic \(verified\)$/m);
  expect(await sender.done()).toContain('arrived on the other device');
  expect(digestTree(into)).toEqual({ 'notes.txt': sha256(notes), 'photo.heic': sha256(photo) });
});

test('the CLI refuses the room when the fingerprint it was given is not the room’s', async () => {
  const cli = new ChildProgram('src-main/cli/main.ts', [
    'receive',
    '--server',
    room.url,
    '--server-certificate',
    `${'AB:'.repeat(31)}AB`,
    '--out',
    files.path,
    'plum-otter-cask',
  ]);
  expect(await cli.waitForExit(CLI_TIMEOUT_MS)).not.toBe(0);
  expect(cli.output).toContain('not the expected AB:AB');
});
