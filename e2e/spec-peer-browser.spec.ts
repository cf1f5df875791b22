import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLoopbackServer } from '../src-main/engine/test-support/loopback-server';
import type { RunningServer } from '../src-main/signaling-server';
import {
  SpecBrowserPeer,
  startSpecPageHost,
  type SpecBrowserFile,
  type SpecPageHost,
} from '../test-peers/spec-browser-peer/index';
import type { Profile } from '../test-peers/spec-peer/index';
import { specReceive, specSend } from '../test-peers/spec-peer/index';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// Ferry against the strict spec-only peer of test-peers/: its browser build (Chromium's own
// RTCPeerConnection, the event socket) against the CLI, and its native build (node-datachannel,
// /ws) against the web client, each way. The spec peer shares no code with Ferry, so a behaviour
// both Ferry peers share cannot hide a spec violation. Several rounds each, never retried.
const ROUNDS = 2;
const MiB = 1024 * 1024;
/** Every round opens sockets and asks for codes from one address. */
const GENEROUS = { maxConnectionsPerIp: 10_000, maxCodeRequestsPerIp: 10_000 };

let scratch: ReturnType<typeof scratchDir>;

test.beforeAll(() => {
  scratch = scratchDir('spec-peer-browser');
});
test.afterAll(() => {
  scratch.remove();
});

/** A fresh folder under the scratch folder. */
function freshFolder(label: string): string {
  mkdirSync(join(scratch.path, 'fresh'), { recursive: true });
  return mkdtempSync(join(scratch.path, 'fresh', `${label}-`));
}

/** A text, an empty file and a file two folders down, written under a fresh folder. */
function writeBatch(label: string): { folder: string; files: SpecBrowserFile[] } {
  const folder = freshFolder(label);
  const names = [
    ['notes.txt', 1_234],
    ['empty.txt', 0],
    ['dir/sub/photo.bin', 3 * MiB + 17],
  ] as const;
  const files = names.map(([name, size]) => ({
    name,
    bytes: new Uint8Array(readFileSync(randomFile(folder, name, size))),
  }));
  return { folder, files };
}

test.describe('the spec browser peer and the CLI', () => {
  let host: SpecPageHost;
  let server: RunningServer;
  let context: BrowserContext;

  test.beforeAll(async ({ browser }) => {
    // The spec page lives on an origin of its own, which the server must let in.
    host = await startSpecPageHost();
    server = await startLoopbackServer({ ...GENEROUS, clientUrl: host.origin });
    context = await browser.newContext();
  });
  test.afterAll(async () => {
    await context.close();
    await server.close();
    await host.close();
  });

  for (const profile of ['browser', 'native'] as const satisfies readonly Profile[]) {
    test(`spec browser peer (${profile} rules) → CLI: a batch with an empty file and a folder`, async () => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const { folder, files } = writeBatch(`to-cli-${profile}`);
        const peer = await SpecBrowserPeer.open(context, host, server.url);
        try {
          const code = await peer.startSend(files, profile);
          const into = freshFolder('cli-received');
          const receiving = commandLine.receive(server.url, code, {
            destination: into,
            ask: false,
          });
          const sent = await peer.finishSend();
          const received = await receiving.finished();

          expect(received.exitCode, received.output).toBe(0);
          expect(digestTree(into)).toEqual(digestTree(folder));
          // The CLI is a native receiver: it announces its release, and a native-rules sender
          // waits for its `received`.
          expect(sent.receiverVer).toBeDefined();
          if (profile === 'native') expect(sent.confirmed, sent.steps.join('\n')).toBe(true);
        } finally {
          await peer.close();
        }
      }
    });

    test(`CLI → spec browser peer (${profile} rules): a batch with an empty file and a folder`, async () => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const { folder, files } = writeBatch(`from-cli-${profile}`);
        const peer = await SpecBrowserPeer.open(context, host, server.url);
        try {
          const sending = await commandLine.send(server.url, [
            join(folder, 'notes.txt'),
            join(folder, 'empty.txt'),
            join(folder, 'dir'),
          ]);
          const received = await peer.receive(sending.code, profile);
          const sent = await sending.finished();

          expect(sent.exitCode, sent.output).toBe(0);
          expect(received.senderVer).toBeDefined();
          expect(received.saved).toEqual(
            files.map((file) => ({
              name: file.name,
              size: file.bytes.byteLength,
              sha256: sha256(join(folder, file.name)),
            })),
          );
          // Only a native receiver sends `received`, and a native sender confirms with it.
          expect(received.receivedSent, received.steps.join('\n')).toBe(profile === 'native');
          if (profile === 'native') expect(sent.output).toMatch(/^Delivered 3 files \([^)]*\)\.$/m);
        } finally {
          await peer.close();
        }
      }
    });
  }
});

test.describe('the native spec peer and the web client', () => {
  let web: RunningWebClient;
  const pages: FerryPage[] = [];

  test.beforeAll(async () => {
    web = await startWebClient();
  });
  test.afterAll(async () => {
    await web.close();
  });
  test.afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
  });

  async function webClient(browser: Browser): Promise<FerryPage> {
    const page = await openPeer(browser, web.url);
    pages.push(page);
    return page;
  }

  test('web client → native spec peer: a folder arrives whole and the spec peer sends received', async ({
    browser,
  }) => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const { folder } = writeBatch('album');
      const sender = await webClient(browser);
      const code = await sender.sendFolder(folder);
      const into = freshFolder('spec-received');
      const received = await specReceive({ serverUrl: web.serverUrl, code, dir: into });

      expect(await sender.done()).toContain('3 files');
      // A browser sender announces no release; the spec peer, a native receiver, still owes it
      // `received` on a channel that is still open.
      expect(received.senderVer).toBeUndefined();
      expect(received.receivedSent, received.steps.join('\n')).toBe(true);
      const name = folder.split('/').at(-1);
      const expected = Object.entries(digestTree(folder)).map(([path, digest]) => [
        `${name}/${path}`,
        digest,
      ]);
      expect(digestTree(into)).toEqual(Object.fromEntries(expected));
    }
  });

  test('native spec peer → web client: the offer made the instant the browser joins', async ({
    browser,
  }) => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const file = randomFile(freshFolder('report'), 'report.pdf', 5 * MiB);
      const receiver = await webClient(browser);
      let announced!: (code: string) => void;
      const code = new Promise<string>((resolve) => (announced = resolve));
      const sending = specSend({
        serverUrl: web.serverUrl,
        files: [{ name: 'report.pdf', path: file }],
        onCode: announced,
      });
      // Whatever happens to the page, the spec peer's own outcome is what explains it.
      const outcome = sending.then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error: String(error) }),
      );
      await receiver.receive(await Promise.race([code, outcome.then(explain)]));
      await receiver.accept();

      const sent = await outcome;
      if (!sent.ok) throw new Error(sent.error);
      expect(await receiver.done()).toContain('1 file');
      // A browser receiver sends its ack as text, announces no release and sends no `received`.
      expect(sent.result.receiverVer).toBeUndefined();
      expect(sent.result.confirmed).toBe(false);
      const [saved] = await receiver.savedDownloads(1);
      expect(sha256(saved)).toBe(sha256(file));
    }
  });

  // docs/protocol.md, "Secret link": a page opened from a link with a key holds a key, and a
  // sender that cannot prove it is refused before any file data, with nothing saved.
  test('native spec peer → web client opened from a link with a key: refused, nothing saved', async ({
    browser,
  }) => {
    const file = randomFile(freshFolder('keyed'), 'report.pdf', 5 * MiB);
    let announced!: (code: string) => void;
    const code = new Promise<string>((resolve) => (announced = resolve));
    const sending = specSend({
      serverUrl: web.serverUrl,
      files: [{ name: 'report.pdf', path: file }],
      onCode: announced,
    });
    const outcome = sending.then(
      () => 'the spec peer finished',
      (error: unknown) => String(error),
    );
    const page = await openPeer(
      browser,
      `${web.url}/#receive=${await code}&key=q83vEjRWeJCrze8SNFZ4kA`,
    );
    pages.push(page);
    await page.page.getByRole('button', { name: 'Receive', exact: true }).click();

    expect(await page.failure()).toContain('the other device did not prove the link’s secret');
    expect(await outcome).toMatch(
      /holds the secret key of a link, and this device did not prove it/,
    );
    expect(page.downloadsStarted).toBe(0);
  });
});

/** The spec sender ended before it had a code to show: its error says why. */
function explain(outcome: { ok: true } | { ok: false; error: string }): never {
  throw new Error(outcome.ok ? 'the spec peer finished without a receiver' : outcome.error);
}
