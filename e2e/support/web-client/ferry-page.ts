import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** Generous enough for a 32 MiB transfer on a loaded two-core machine. */
const TRANSFER_TIMEOUT_MS = 90_000;

/**
 * The web client as a person uses it, through its visible controls only. Downloads the page
 * starts are saved under `downloads` by their suggested names.
 */
export class FerryPage {
  /** Each download the page started: its saved path, or undefined when it did not complete. */
  readonly #downloads: Promise<string | undefined>[] = [];

  constructor(
    readonly page: Page,
    readonly downloads: string,
  ) {
    mkdirSync(downloads, { recursive: true });
    page.on('download', (download) => this.#downloads.push(this.#save(download)));
  }

  async #save(download: Download): Promise<string | undefined> {
    const path = join(this.downloads, download.suggestedFilename());
    try {
      await download.saveAs(path);
      return path;
    } catch {
      // An aborted download (a discarded or cancelled file) never completes.
      return undefined;
    }
  }

  async open(url: string): Promise<this> {
    await this.page.goto(url);
    await expect(this.page.getByRole('tab', { name: 'Send' })).toBeVisible();
    return this;
  }

  /** Chooses files through the file picker, sends them, and returns the code shown. */
  async send(paths: string[]): Promise<string> {
    await this.#choose('Choose files', paths);
    return this.#startSending();
  }

  /** Chooses a folder through the folder picker, sends it, and returns the code shown. */
  async sendFolder(path: string): Promise<string> {
    await this.#choose('Choose folder', [path]);
    return this.#startSending();
  }

  async #choose(button: string, paths: string[]): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('button', { name: button }).click();
    await (await chooser).setFiles(paths);
  }

  async #startSending(): Promise<string> {
    await this.page.getByRole('button', { name: 'Send', exact: true }).click();
    const code = this.page.getByTestId('transfer-code');
    await expect(code).toBeVisible();
    return ((await code.textContent()) ?? '').trim();
  }

  /** Types the code on the Receive screen and waits for the offer. */
  async receive(code: string): Promise<void> {
    await this.page.getByRole('tab', { name: 'Receive' }).click();
    await this.page.getByRole('combobox', { name: 'Code' }).fill(code);
    await this.page.getByRole('button', { name: 'Receive', exact: true }).click();
  }

  get offer(): Locator {
    return this.page.getByRole('heading', { name: 'Incoming files' });
  }

  async accept(): Promise<void> {
    await expect(this.offer).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    await this.page.getByRole('button', { name: 'Accept' }).click();
  }

  /** What the offer says under "Save to". */
  async saveTo(): Promise<string> {
    await expect(this.offer).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    const saveTo = this.page.locator('dt', { hasText: 'Save to' }).locator('+ dd .path');
    return (await saveTo.textContent()) ?? '';
  }

  /** Changes where the offer is saved through the folder picker. */
  async changeFolder(): Promise<void> {
    await expect(this.offer).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    await this.page.getByRole('button', { name: 'Change' }).click();
  }

  async decline(): Promise<void> {
    await expect(this.offer).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    await this.page.getByRole('button', { name: 'Decline' }).click();
  }

  async cancel(): Promise<void> {
    await this.page.getByRole('button', { name: 'Cancel' }).click();
  }

  /** Waits for the transfer to finish and returns what the done screen says. */
  async done(): Promise<string> {
    const done = this.page.getByTestId('transfer-done');
    await expect(done).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    return (await done.textContent()) ?? '';
  }

  /** Waits for the transfer to fail and returns the failure's heading and sentence. */
  async failure(): Promise<string> {
    const alert = this.page.getByRole('alert');
    await expect(alert).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    return (await alert.textContent()) ?? '';
  }

  /**
   * Waits for the transfer to end on a person's choice, here or on the other device, which the
   * page says under `heading` without raising an alert, and returns what it says.
   */
  async ended(heading: string): Promise<Locator> {
    const card = this.page.getByRole('region', { name: heading });
    await expect(card).toBeVisible({ timeout: TRANSFER_TIMEOUT_MS });
    await expect(this.page.getByRole('alert')).toHaveCount(0);
    return card;
  }

  /** Waits until bytes are moving. */
  async transferring(): Promise<void> {
    await expect(this.page.getByTestId('transfer-progress')).toBeVisible({
      timeout: TRANSFER_TIMEOUT_MS,
    });
  }

  /** Waits for `count` downloads to start and returns the paths of those that completed. */
  async savedDownloads(count: number): Promise<string[]> {
    await expect.poll(() => this.#downloads.length, { timeout: TRANSFER_TIMEOUT_MS }).toBe(count);
    const saved = await Promise.all(this.#downloads);
    return saved.filter((path) => path !== undefined);
  }

  /** How many downloads the page started so far. */
  get downloadsStarted(): number {
    return this.#downloads.length;
  }

  async close(): Promise<void> {
    await this.page.context().close();
    rmSync(this.downloads, { recursive: true, force: true });
  }
}
