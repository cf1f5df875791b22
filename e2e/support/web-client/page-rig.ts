import { expect, test, type Browser } from '@playwright/test';
import { openPeer } from './browser-peers';
import type { FerryPage } from './ferry-page';
import { scratchDir } from './test-files';
import { startWebClient, type RunningWebClient } from './web-client-host';

export interface PageRig {
  /** The web client served for the whole file. */
  readonly web: RunningWebClient;
  readonly scratch: ReturnType<typeof scratchDir>;
  /**
   * A page of the web client in a browser context of its own, closed after the test; `path` is
   * added to the web client's address (a receive link's `/#receive=…`).
   */
  browserPeer(browser: Browser, path?: string): Promise<FerryPage>;
}

/**
 * What the web-client specs start from: the web client and a scratch folder for the whole file,
 * and pages closed after each test. Call it at the top level of a spec; `options` are
 * startWebClient's (an insecure origin, a LAN address).
 */
export function usePageRig(
  label: string,
  options: Parameters<typeof startWebClient>[0] = {},
): PageRig {
  let web: RunningWebClient | undefined;
  let scratch: ReturnType<typeof scratchDir> | undefined;
  const pages: FerryPage[] = [];
  test.beforeAll(async () => {
    web = await startWebClient(options);
    scratch = scratchDir(label);
  });
  test.afterAll(async () => {
    await web?.close();
    scratch?.remove();
  });
  test.afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('usePageRig: read before beforeAll ran');
    return value;
  };
  return {
    get web() {
      return ready(web);
    },
    get scratch() {
      return ready(scratch);
    },
    async browserPeer(browser, path = '') {
      const page = await openPeer(browser, `${ready(web).url}${path}`);
      pages.push(page);
      return page;
    },
  };
}

/** The words a page shows in its verification line, once it shows them. */
export async function wordsOn(peer: FerryPage): Promise<string> {
  const words = peer.page.getByTestId('peer-check').locator('.verification-words');
  await expect(words).toBeVisible({ timeout: 60_000 });
  return (await words.textContent()) ?? '';
}
