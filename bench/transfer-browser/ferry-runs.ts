// Ferry's own two directions between the web client in Chromium and the native engine in this
// process, each timed like its bare counterpart: from the moment the sender may start (the native
// receiver's acceptance; the native sender's first chunk) until the receiver is done. Both run
// with Ferry's extensions, as they are by default: every file is verified end to end, and each
// run says whether it was, as the native end saw it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { receiveFiles, sendFiles } from '../../src-main/engine';

const TRANSFER_TIMEOUT_MS = 600_000;

/** One Ferry run: its speed, and whether the file was verified end to end. */
export interface FerryRun {
  mibPerSecond: number;
  verified: boolean;
}

/**
 * Settles as the page shows the outcome, seen by the page itself: a locator's `waitFor` polls
 * with a back-off that reaches 500 ms, which would add up to that much to a run's time. Source
 * text, as the page's half of the bare channel is, so no helper of this program's compiler is
 * needed in the page.
 */
const OUTCOME_SHOWN = `new Promise((resolve) => {
  setTimeout(resolve, ${TRANSFER_TIMEOUT_MS});
  const shown = () => document.querySelector('[data-testid="transfer-done"], [role="alert"]') !== null;
  if (shown()) return resolve();
  const observer = new MutationObserver(() => {
    if (!shown()) return;
    observer.disconnect();
    resolve();
  });
  observer.observe(document.body, { childList: true, subtree: true });
})`;

export async function openWebClient(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('tab', { name: 'Send' }).waitFor();
  return page;
}

/** The web client sends `file`; resolves with the code it shows. */
export async function pageSends(page: Page, file: string): Promise<string> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles(file);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  return ((await page.getByTestId('transfer-code').textContent()) ?? '').trim();
}

/**
 * The web client receives `code` and accepts the offer; resolves with `performance.now()` at the
 * moment the outcome showed, once it is known to be a success; throws on a failure.
 */
async function pageReceives(page: Page, code: string): Promise<number> {
  await page.getByRole('tab', { name: 'Receive' }).click();
  await page.getByRole('combobox', { name: 'Code' }).fill(code);
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  const accept = page.getByRole('button', { name: 'Accept' });
  await accept.waitFor({ timeout: TRANSFER_TIMEOUT_MS });
  const finished = page.evaluate(OUTCOME_SHOWN);
  await accept.click();
  await finished;
  const done = performance.now();
  const failed = page.getByRole('alert');
  if (await failed.isVisible()) {
    throw new Error(`native → browser failed: ${await failed.textContent()}`);
  }
  if (!(await page.getByTestId('transfer-done').isVisible())) {
    throw new Error('native → browser did not finish in time');
  }
  return done;
}

/** `file` sent from the web client to the native engine, which verifies what arrives. */
export async function ferryBrowserToNative(
  context: BrowserContext,
  webUrl: string,
  serverUrl: string,
  file: string,
  bytes: number,
): Promise<FerryRun> {
  const page = await openWebClient(context, webUrl);
  const destination = mkdtempSync(join(tmpdir(), 'ferry-bench-received-'));
  try {
    const code = await pageSends(page, file);

    let accepted = 0;
    let done = 0;
    const transfer = receiveFiles({
      serverUrl,
      code,
      destination,
      remedySurface: 'cli',
      reportBytes: false,
      onOffer: async () => {
        accepted = performance.now();
        return true;
      },
    });
    transfer.on('state', (state) => {
      if (state.phase === 'done') done = performance.now();
    });
    const final = await transfer.finished;
    if (final.phase !== 'done') throw new Error(`browser → native failed: ${final.message}`);
    return {
      mibPerSecond: bytes / 1024 / 1024 / ((done - accepted) / 1000),
      verified: final.verified === true,
    };
  } finally {
    await page.close();
    rmSync(destination, { recursive: true, force: true });
  }
}

/**
 * `file` sent from the native engine to the web client, streamed to its downloads; verified when
 * the web client confirmed its digest to the native sender.
 */
export async function ferryNativeToBrowser(
  context: BrowserContext,
  webUrl: string,
  serverUrl: string,
  file: string,
  bytes: number,
): Promise<FerryRun> {
  const page = await openWebClient(context, webUrl);
  const transfer = sendFiles({ serverUrl, paths: [file], remedySurface: 'cli' });
  let started = 0;
  try {
    const code = await new Promise<string>((resolve, reject) => {
      transfer.on('state', (state) => {
        if (state.phase === 'waiting-for-peer') resolve(state.code);
        if (state.phase === 'failed') reject(new Error(`native sender failed: ${state.message}`));
        // As the bare run's clock starts when node starts sending, not when a person clicks.
        if (state.phase === 'transferring' && started === 0) started = performance.now();
      });
    });
    const done = await pageReceives(page, code);
    const final = await transfer.finished;
    if (final.phase !== 'done') throw new Error(`native → browser failed: ${final.message}`);
    return {
      mibPerSecond: bytes / 1024 / 1024 / ((done - started) / 1000),
      verified: final.verified === true,
    };
  } finally {
    transfer.cancel();
    await page.close();
  }
}
