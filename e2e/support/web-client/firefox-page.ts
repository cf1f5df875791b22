import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect } from '@playwright/test';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';

/** As FerryPage's: generous enough for a transfer on a loaded two-core machine. */
const TRANSFER_TIMEOUT_MS = 90_000;
/** How often `send` opens the file chooser before it gives up, and how long each pick may take to show. */
const PICK_ATTEMPTS = 3;
const PICKED_LISTED_MS = 15_000;

/**
 * Debian's Firefox ESR, headless, driven over WebDriver BiDi: Playwright can only drive its own
 * patched Firefox, which cannot be downloaded offline, while puppeteer-core speaks the standard
 * protocol every stock Firefox has. `prefs` are added for this launch only.
 */
export function launchFirefox(
  executablePath: string,
  prefs: Record<string, string | number | boolean> = {},
): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath,
    headless: true,
    extraPrefsFirefox: {
      // Nothing dials out on a closed network, and no first-run pages get in the way.
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      // Otherwise headless Firefox cancels the page's file input the moment it opens, before
      // WebDriver BiDi can fill it (../shared/WEBRTC-NOTES.md, "Firefox").
      'remote.bidi.dismiss_file_pickers.enabled': false,
      ...prefs,
    },
  });
}

/**
 * The web client in Firefox as a person uses it, through its visible controls (selectors by
 * role and text, as FerryPage's), in a browser context of its own whose downloads go, without
 * asking, into a scratch folder (WebDriver BiDi's browser.setDownloadBehavior).
 */
export class FirefoxPage {
  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    /** Where the page's downloads land. */
    readonly downloads: string,
  ) {}

  static async open(browser: Browser, url: string): Promise<FirefoxPage> {
    const downloads = mkdtempSync(join(tmpdir(), 'ferry-firefox-downloads-'));
    const context = await browser.createBrowserContext({
      downloadBehavior: { policy: 'allow', downloadPath: downloads },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(TRANSFER_TIMEOUT_MS);
    await page.goto(url);
    await page.waitForSelector('[role=tab]::-p-text(Send)', { visible: true });
    return new FirefoxPage(page, context, downloads);
  }

  /** Chooses the files with "Choose files", as a person does, sends them, and returns the code. */
  async send(paths: readonly string[]): Promise<string> {
    for (let attempt = 1; !(await this.#pick(paths)); attempt += 1) {
      if (attempt === PICK_ATTEMPTS) throw new Error(`Firefox never took ${paths.join(', ')}`);
    }
    await this.page.locator('.actions button.button--primary::-p-text(Send)').click();
    const code = await this.page.waitForSelector('[data-testid=transfer-code]', { visible: true });
    return ((await code?.evaluate((element) => element.textContent)) ?? '').trim();
  }

  /**
   * One pick through the page's file chooser; whether the page then lists every file. In one full
   * CI run the page listed none of the picked files in both Firefox sends, while the same specs
   * passed on their own. The likeliest cause: headless Firefox cancelled the chooser before
   * WebDriver BiDi filled it, and the page drops its input on `cancel`, so the files set
   * afterwards went nowhere (../shared/WEBRTC-NOTES.md, "Firefox"). A person whose picker closed
   * empty picks again, and so does this.
   */
  async #pick(paths: readonly string[]): Promise<boolean> {
    const [chooser] = await Promise.all([
      this.page.waitForFileChooser(),
      this.page.locator('button::-p-text(Choose files)').click(),
    ]);
    await chooser.accept([...paths]);
    try {
      for (const path of paths) {
        await this.page.waitForSelector(`::-p-text(${basename(path)})`, {
          timeout: PICKED_LISTED_MS,
        });
      }
      return true;
    } catch {
      return false;
    }
  }

  /** Types the code on the Receive screen and asks for the offer. */
  async receive(code: string): Promise<void> {
    await this.page.locator('[role=tab]::-p-text(Receive)').click();
    await this.page.locator('input[role=combobox]').fill(code);
    await this.page.locator('form.receive-form button[type=submit]').click();
  }

  async accept(): Promise<void> {
    await this.page.waitForSelector('::-p-text(Incoming files)', { visible: true });
    await this.page.locator('button::-p-text(Accept)').click();
  }

  /** The words the page shows in its verification line, once it shows them. */
  async words(): Promise<string> {
    const words = await this.page.waitForSelector('[data-testid=peer-check] .verification-words', {
      visible: true,
    });
    return (await words?.evaluate((element) => element.textContent)) ?? '';
  }

  /** Waits for the transfer to finish and returns what the done screen says. */
  async done(): Promise<string> {
    const done = await this.page.waitForSelector('[data-testid=transfer-done]', { visible: true });
    return (await done?.evaluate((element) => element.textContent)) ?? '';
  }

  /**
   * Waits until Firefox has finished writing the download `name` of `bytes` bytes and returns
   * its path. While it writes, Firefox keeps an empty placeholder under the final name beside a
   * `.part` file it renames over the placeholder at the end.
   */
  async savedDownload(name: string, bytes: number): Promise<string> {
    const path = join(this.downloads, name);
    const complete = (): boolean =>
      existsSync(path) &&
      statSync(path).size === bytes &&
      !readdirSync(this.downloads).some((entry) => entry.endsWith('.part'));
    await expect
      .poll(complete, {
        message: `${name} saved whole in ${this.downloads}`,
        timeout: TRANSFER_TIMEOUT_MS,
      })
      .toBe(true);
    return path;
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.downloads, { recursive: true, force: true });
  }
}
