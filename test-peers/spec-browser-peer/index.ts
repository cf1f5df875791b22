// The browser spec peer from a test's side (Node, Playwright): bundles page.ts, serves it on the
// signaling server's own origin through request interception (so the page's requests to the
// server are same-origin, as the web client's are) and drives it through `globalThis.specPeer`.
import type { BrowserContext, Page } from '@playwright/test';
import { build } from 'esbuild';
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

  /** A page of `context` on `serverUrl`'s origin, running the spec peer. */
  static async open(context: BrowserContext, serverUrl: string): Promise<SpecBrowserPeer> {
    const origin = new URL(serverUrl).origin;
    const script = await pageScript();
    await context.route(`${origin}${PAGE_PATH}`, (route) =>
      route.fulfill({ contentType: 'text/html', body: PAGE }),
    );
    await context.route(`${origin}${SCRIPT_PATH}`, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: script }),
    );
    const page = await context.newPage();
    await page.goto(`${origin}${PAGE_PATH}`);
    await page.waitForFunction(() => 'specPeer' in globalThis);
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
