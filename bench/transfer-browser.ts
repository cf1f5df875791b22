// The browser half of `npm run bench:transfer`: web client (Chromium's own WebRTC) to the native
// engine and back, each beside a bare Chromium ↔ node-datachannel channel measured in the same
// run between the same two processes; native → browser also beside a bare channel whose page
// saves the file as the web client does. Ferry runs with its extensions on, as by default: every
// file is verified end to end (docs/protocol.md, "Verification"), and the figures say so.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright';
import { startWebHost } from '../src-main/web-host';
import { CHROMIUM_ARGS, findChromium } from '../e2e/support/chromium';
import { SHOW_HOST_ADDRESSES } from '../e2e/support/web-client/chromium-flags';
import { ensureRendererBuilt } from '../e2e/support/web-client/renderer-build';
import { randomFile } from '../e2e/support/web-client/test-files';
import {
  bareBrowserToNode,
  bareNodeToBrowser,
  bareNodeToBrowserDownload,
} from './transfer-browser/bare-channel';
import {
  ferryBrowserToNative,
  ferryNativeToBrowser,
  type FerryRun,
} from './transfer-browser/ferry-runs';

/** The goal: Ferry, verifying every file, at 80% of a bare channel or better, each way. */
export const BROWSER_RATIO_GOAL = 0.8;

export type DirectionResult =
  | {
      ferryMiBps: number;
      bareMiBps: number;
      /** ferryMiBps / bareMiBps. */
      ratio: number;
      meetsGoal: boolean;
      /** Every Ferry run was verified end to end. */
      verification: boolean;
    }
  /** The Ferry run did not complete: a bug to report, not a figure. */
  | { bareMiBps: number; error: string };

/**
 * The bare channel again, with the page saving what arrives through the web client's download
 * worker: the ceiling for any web client that saves a streamed file in this browser.
 */
export interface SavingBaseline {
  bareSavingMiBps: number;
  /** bareSavingMiBps / bareMiBps: what saving the file costs the browser itself. */
  bareSavingRatio: number;
  /** ferryMiBps / bareSavingMiBps: what Ferry costs beyond that. */
  ferryToBareSavingRatio?: number;
}

export interface BrowserTransferResult {
  bytes: number;
  browserToNative: DirectionResult;
  nativeToBrowser: DirectionResult & SavingBaseline;
}

const round = (value: number): number => Math.round(value * 100) / 100;

async function attempt<T>(run: () => Promise<T>): Promise<T | Error> {
  try {
    return await run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function savingBaseline(ferry: FerryRun | Error, bare: number, saving: number): SavingBaseline {
  return {
    bareSavingMiBps: round(saving),
    bareSavingRatio: round(saving / bare),
    ...(ferry instanceof Error
      ? {}
      : { ferryToBareSavingRatio: round(ferry.mibPerSecond / saving) }),
  };
}

function direction(runs: readonly (FerryRun | Error)[], bare: number): DirectionResult {
  const ferry = fastest(runs);
  if (ferry instanceof Error) return { bareMiBps: round(bare), error: ferry.message };
  const ratio = ferry.mibPerSecond / bare;
  return {
    ferryMiBps: round(ferry.mibPerSecond),
    bareMiBps: round(bare),
    ratio: round(ratio),
    meetsGoal: ratio >= BROWSER_RATIO_GOAL,
    verification: runs.every((run) => !(run instanceof Error) && run.verified),
  };
}

/** Flushes written files to disk where `sync` exists; elsewhere runs simply go unsettled. */
function settleDisk(): void {
  try {
    execFileSync('sync', { stdio: 'ignore' });
  } catch {
    // No sync command: the figures are noisier, not wrong.
  }
}

/** Each figure is the best of this many runs: interference on a shared machine only slows a run. */
export const BROWSER_BENCH_ROUNDS = 5;

/** Measures both directions with a file of `bytes`, `rounds` times. Bare and Ferry runs
 * alternate so drift on a shared machine hits both alike. */
export async function benchBrowserTransfers(
  bytes: number,
  rounds = BROWSER_BENCH_ROUNDS,
): Promise<BrowserTransferResult> {
  const scratch = mkdtempSync(join(tmpdir(), 'ferry-bench-browser-'));
  const file = randomFile(scratch, 'payload.bin', bytes);
  const web = await startWebHost({
    port: 0,
    host: '127.0.0.1',
    root: ensureRendererBuilt(),
    signaling: {
      maxConnectionsPerIp: 10_000,
      maxTurnRequestsPerIp: 10_000,
      maxCodeRequestsPerIp: 10_000,
    },
    log: { info: () => undefined, error: (line) => console.error(line) },
  });
  // Host addresses in the candidates: node-datachannel cannot resolve mDNS names, and the
  // bare channel should not be slowed by a peer-reflexive detour the Ferry run might not take.
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS, SHOW_HOST_ADDRESSES],
  });
  try {
    const up = { bare: [] as number[], ferry: [] as (FerryRun | Error)[] };
    const down = {
      bare: [] as number[],
      saving: [] as number[],
      ferry: [] as (FerryRun | Error)[],
    };
    // Each run is a fresh visit: its own context, so the web client's download worker starts in
    // the page's own process, as it does for a person who opens the page. A worker left running
    // by an earlier page sits in another process, and every buffer handed to it is copied across
    // (about 2.5 ms per MiB of the page's CPU here), whichever run happens to come second. Closing
    // the context deletes what it downloaded, and each run starts with the disk settled: kept
    // files and pending write-back would tax the next run (README, Performance).
    const fresh = async <T>(run: (context: BrowserContext) => Promise<T>): Promise<T> => {
      settleDisk();
      const context = await browser.newContext({ acceptDownloads: true });
      try {
        return await run(context);
      } finally {
        await context.close();
      }
    };
    for (let round = 0; round < rounds; round += 1) {
      up.bare.push(await fresh((context) => bareBrowserToNode(context, bytes)));
      up.ferry.push(
        await fresh((context) =>
          attempt(() => ferryBrowserToNative(context, web.url, web.url, file, bytes)),
        ),
      );
      down.bare.push(await fresh((context) => bareNodeToBrowser(context, bytes)));
      down.saving.push(
        await fresh((context) => bareNodeToBrowserDownload(context, web.url, bytes)),
      );
      down.ferry.push(
        await fresh((context) =>
          attempt(() => ferryNativeToBrowser(context, web.url, web.url, file, bytes)),
        ),
      );
    }
    return {
      bytes,
      browserToNative: direction(up.ferry, Math.max(...up.bare)),
      nativeToBrowser: {
        ...direction(down.ferry, Math.max(...down.bare)),
        ...savingBaseline(fastest(down.ferry), Math.max(...down.bare), Math.max(...down.saving)),
      },
    };
  } finally {
    await browser.close();
    await web.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The fastest run, or the first failure: a run that failed says more than the others' speed. */
function fastest(runs: readonly (FerryRun | Error)[]): FerryRun | Error {
  let best: FerryRun | undefined;
  for (const run of runs) {
    if (run instanceof Error) return run;
    if (best === undefined || run.mibPerSecond > best.mibPerSecond) best = run;
  }
  return best ?? new Error('no run');
}
