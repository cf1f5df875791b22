// The browser spec peer from a test's side (Node, Playwright): bundles page.ts, serves it from a
// small loopback HTTP server of its own, and drives it through `globalThis.specPeer`. The page
// reaches the signaling server across origins, as a hosted web client does, so the server must
// let the page host's origin in (its CLIENT_URL, signaling spec "Authentication" rule 3).
import type { BrowserContext, Page } from '@playwright/test';
import { build } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Profile } from '../spec-peer/control-frames';
import type { ReceiveResult, SendResult } from '../spec-peer/run-peer';
import type { DigestedFile, PageFile } from './memory-files';
import type { SpecBrowserPeerApi } from './page-api';

export type { DigestedFile } from './memory-files';

const PAGE_PATH = '/spec-browser-peer.html';
const SCRIPT_PATH = '/spec-browser-peer.js';
const PAGE = `<!doctype html><meta charset="utf-8"><title>spec peer</title><script src="${SCRIPT_PATH}"></script>`;

let bundled: Promise<string> | undefined;

/** page.ts and everything it imports (socket.io-client included) as one classic script. */
function pageScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);
  return bundled;
}

export interface SpecBrowserFile {
  name: string;
  bytes: Uint8Array;
}

export class SpecBrowserPeer {
  private constructor(readonly page: Page) {}

  /** A page of `context`, from `host`, running the spec peer against the server at `serverUrl`. */
  static async open(
    context: BrowserContext,
    host: SpecPageHost,
    serverUrl: string,
  ): Promise<SpecBrowserPeer> {
    const page = await context.newPage();
    await page.goto(`${host.origin}${PAGE_PATH}?${new URLSearchParams({ server: serverUrl })}`);
    await page.waitForFunction("'specPeer' in globalThis");
    return new SpecBrowserPeer(page);
  }

  /** Starts sending `files`; resolves with the code once the page holds the sender's seat. */
  startSend(files: readonly SpecBrowserFile[], profile: Profile = 'browser'): Promise<string> {
    const pageFiles: PageFile[] = files.map((file) => ({
      name: file.name,
      base64: Buffer.from(file.bytes).toString('base64'),
    }));
    return this.#call('startSend', { files: pageFiles, profile });
  }

  /** How the send that startSend began ended; rejects with the spec peer's own explanation. */
  finishSend(): Promise<SendResult> {
    return this.#call('finishSend', undefined);
  }

  receive(code: string, profile: Profile = 'browser'): Promise<ReceiveResult<DigestedFile>> {
    return this.#call('receive', { code, profile });
  }

  async close(): Promise<void> {
    await this.page.close();
  }

  /**
   * Calls the page's API with a source-text expression: a function compiled by the test's own
   * transpiler could carry helpers that do not exist in the page.
   */
  async #call<K extends keyof SpecBrowserPeerApi>(
    method: K,
    argument: Parameters<SpecBrowserPeerApi[K]>[0],
  ): Promise<Awaited<ReturnType<SpecBrowserPeerApi[K]>>> {
    const call = `globalThis.specPeer.${method}(${argument === undefined ? '' : JSON.stringify(argument)})`;
    return (await this.page.evaluate(call)) as Awaited<ReturnType<SpecBrowserPeerApi[K]>>;
  }
}

export interface SpecPageHost {
  /** The page's origin: give it to the signaling server as its CLIENT_URL. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves the page on a free loopback port. Loopback matters: Chromium lets a page reach the
 * loopback signaling server only from the loopback address space, and 127.0.0.1 is a secure
 * context, which crypto.randomUUID and crypto.subtle need.
 */
export async function startSpecPageHost(): Promise<SpecPageHost> {
  const script = await pageScript();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    if (path === PAGE_PATH) response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    else if (path === SCRIPT_PATH) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
