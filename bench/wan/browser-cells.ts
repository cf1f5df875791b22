// The browser cells of `npm run bench:wan`: Ferry's web client in Chromium, inside namespace b,
// to and from the native engine (bench/transfer/engine-peer.ts) in namespace a, over the delay
// line at 50 ms and no loss. The page comes from the web host in namespace b (web-host.ts).
// Chromium runs inside the namespace through a generated launcher script that Playwright starts
// as its browser: `ip netns exec` replaces itself with Chromium, so Playwright's pipes survive.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_INSTALL_HINT, findChromium } from '../../e2e/support/chromium';
import type { NetnsPair } from '../../e2e/support/netns';
import { SHOW_HOST_ADDRESSES } from '../../e2e/support/web-client/chromium-flags';
import { openWebClient, pageSends } from '../transfer-browser/ferry-runs';
import { now } from '../transfer/bench-messages';
import { writePayload } from '../transfer/payload-file';
import { startPeer, type PeerProcess } from '../transfer/peer-process';
import { ferryKnobArgs, udpDrops, type FerryKnobs } from './cells';
import { assertCarried, LineBypassError, startDelayLine, type DelayLine } from './link';
import { errorMessage } from '../../src-shared/format/error-message';

/** The browser cell: 50 ms RTT, no loss. */
export const BROWSER_RTT_MS = 50;
export const BROWSER_LOSS_PCT = 0;
/** The file of both directions; a run also ends after the cell's seconds, as every other. */
const BROWSER_BYTES = 256 * 1024 * 1024;
/** Setup (page, code, offer) beyond the cell's seconds. */
const BROWSER_RUN_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 10_000;
const MS_PER_S = 1000;
const MIB = 1024 * 1024;
const EXECUTABLE_MODE = 0o755;

export type BrowserDirection = 'browser→native' | 'native→browser';

export interface BrowserCell {
  direction: BrowserDirection;
  rttMs: number;
  lossPct: number;
  /** Median of the runs that completed; null when none did. */
  ferryMiBps: number | null;
  runs: number[];
  /**
   * Per run, datagrams the receiving namespace dropped at a full UDP socket (RcvbufErrors):
   * Chromium's sockets keep a small receive buffer (docs/performance.md, "The browser side").
   */
  receiverUdpDrops: number[];
  errors?: string[];
}

export interface BrowserCellOptions {
  netns: NetnsPair;
  lineBinary: string;
  rateBytesPerS: number;
  /** The web host in namespace b: page and signaling on one origin. */
  webUrl: string;
  scratch: string;
  knobs: FerryKnobs;
  reps: number;
  /** The time limit of a browser → native run, as in every other cell. */
  seconds: number;
  median(values: number[]): number;
}

interface RunContext {
  options: BrowserCellOptions;
  line: DelayLine;
  browser: Browser;
  file: string;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

async function ended(peer: PeerProcess): Promise<void> {
  const timer = setTimeout(() => peer.child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  await peer.exited;
  clearTimeout(timer);
}

/** A shell script Playwright can start as Chromium, which runs Chromium inside `namespace`. */
async function chromiumLauncher(folder: string, namespace: string, real: string): Promise<string> {
  const launcher = join(folder, 'chromium-in-netns');
  await writeFile(launcher, `#!/bin/sh\nexec ip netns exec ${namespace} ${real} "$@"\n`);
  await chmod(launcher, EXECUTABLE_MODE);
  return launcher;
}

/** A browser run's goodput, and what the receiving namespace dropped at its UDP sockets. */
interface BrowserRun {
  MiBps: number;
  receiverUdpDrops: number;
}

/** The web client sends the file; the native receiver in a stops after the cell's seconds. */
async function browserToNative(run: RunContext, context: BrowserContext): Promise<BrowserRun> {
  const { options, line } = run;
  const page = await openWebClient(context, options.webUrl);
  const destination = await mkdtemp(join(options.scratch, 'received-'));
  try {
    const code = await pageSends(page, run.file);
    const before = await line.counters();
    const dropsBefore = (await udpDrops(options.netns.a)).RcvbufErrors;
    const receiver = startPeer(
      'engine-peer.ts',
      [
        'receive',
        options.webUrl,
        code,
        destination,
        `--stop-after-seconds=${options.seconds}`,
        ...ferryKnobArgs(options.knobs),
      ],
      { namespace: options.netns.a.namespace },
    );
    try {
      const deadline = options.seconds * MS_PER_S + BROWSER_RUN_TIMEOUT_MS;
      const [started, received] = await withDeadline(
        Promise.all([receiver.next('transferring'), receiver.next('received')]),
        deadline,
        'browser → native',
      );
      await receiver.next('finished');
      assertCarried(before, await line.counters(), 'bToA', received.bytes, 'browser → native');
      return {
        MiBps: received.bytes / MIB / ((received.at - started.at) / MS_PER_S),
        receiverUdpDrops: (await udpDrops(options.netns.a)).RcvbufErrors - dropsBefore,
      };
    } finally {
      receiver.child.kill('SIGKILL');
      await ended(receiver);
    }
  } finally {
    await page.close();
    await rm(destination, { recursive: true, force: true });
  }
}

/**
 * Resolves when the page shows an outcome or after `limitMs`, with the share of the file its
 * progress bar showed last and how long ago that was. Source text, run in the page: it watches
 * every change of the page, so the share's time is exact to the page's own rendering.
 */
function progressWatch(limitMs: number): string {
  return `new Promise((resolve) => {
    let last = { share: 0, at: performance.now() };
    const read = () => {
      const bar = document.querySelector('progress[aria-label="Progress"]');
      const share = bar === null ? last.share : Number(bar.value);
      if (share !== last.share) last = { share, at: performance.now() };
    };
    const outcome = () =>
      document.querySelector('[data-testid="transfer-done"], [role="alert"]') !== null;
    const end = (shown) => {
      observer.disconnect();
      read();
      resolve({ shown, share: last.share, ageMs: performance.now() - last.at });
    };
    const observer = new MutationObserver(() => {
      read();
      if (outcome()) end(true);
    });
    observer.observe(document.body, {
      subtree: true, childList: true, characterData: true, attributes: true,
    });
    if (outcome()) end(true);
    setTimeout(() => end(false), ${Math.max(0, Math.round(limitMs))});
  })`;
}

interface Watched {
  shown: boolean;
  share: number;
  ageMs: number;
}

/**
 * The native sender in a; the web client receives into its downloads until the file is in or
 * the cell's seconds have passed since the sender began sending data, whichever comes first.
 */
async function nativeToBrowser(run: RunContext, context: BrowserContext): Promise<BrowserRun> {
  const { options, line } = run;
  const page = await openWebClient(context, options.webUrl);
  const sender = startPeer(
    'engine-peer.ts',
    ['send', options.webUrl, run.file, '--expect-cut', ...ferryKnobArgs(options.knobs)],
    { namespace: options.netns.a.namespace },
  );
  try {
    const { code } = await sender.next('code');
    const before = await line.counters();
    const dropsBefore = (await udpDrops(options.netns.b)).RcvbufErrors;
    await page.getByRole('tab', { name: 'Receive' }).click();
    await page.getByRole('combobox', { name: 'Code' }).fill(code);
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    const accept = page.getByRole('button', { name: 'Accept' });
    await accept.waitFor({ timeout: BROWSER_RUN_TIMEOUT_MS });
    await accept.click();
    const started = await sender.next('transferring');
    const limitMs = started.at + options.seconds * MS_PER_S - now();
    const watched = (await page.evaluate(progressWatch(limitMs))) as Watched;
    const at = now() - watched.ageMs;
    if (watched.shown && !(await page.getByTestId('transfer-done').isVisible())) {
      throw new Error(`native → browser failed: ${await page.getByRole('alert').textContent()}`);
    }
    const bytes = watched.shown ? BROWSER_BYTES : Math.round(watched.share * BROWSER_BYTES);
    assertCarried(before, await line.counters(), 'aToB', bytes, 'native → browser');
    return {
      MiBps: bytes / MIB / ((at - started.at) / MS_PER_S),
      receiverUdpDrops: (await udpDrops(options.netns.b)).RcvbufErrors - dropsBefore,
    };
  } finally {
    await page.close();
    sender.child.kill('SIGKILL');
    await ended(sender);
  }
}

const DIRECTIONS: readonly [BrowserDirection, typeof browserToNative][] = [
  ['browser→native', browserToNative],
  ['native→browser', nativeToBrowser],
];

/** Both directions, `reps` times each, alternating; one line per direction. */
async function measureDirections(run: RunContext): Promise<BrowserCell[]> {
  const results = new Map<
    BrowserDirection,
    { runs: number[]; receiverUdpDrops: number[]; errors: string[] }
  >(DIRECTIONS.map(([direction]) => [direction, { runs: [], receiverUdpDrops: [], errors: [] }]));
  for (let rep = 0; rep < run.options.reps; rep += 1) {
    for (const [direction, measure] of DIRECTIONS) {
      // A fresh context per run, as a person opening the page: its own download worker.
      const context = await run.browser.newContext({ acceptDownloads: true });
      const result = results.get(direction)!;
      try {
        const measured = await measure(run, context);
        result.runs.push(round(measured.MiBps));
        result.receiverUdpDrops.push(measured.receiverUdpDrops);
      } catch (error) {
        if (error instanceof LineBypassError) throw error;
        result.errors.push(errorMessage(error));
      } finally {
        await context.close();
      }
    }
  }
  return DIRECTIONS.map(([direction]) => {
    const { runs, receiverUdpDrops, errors } = results.get(direction)!;
    return {
      direction,
      rttMs: BROWSER_RTT_MS,
      lossPct: BROWSER_LOSS_PCT,
      ferryMiBps: runs.length > 0 ? round(run.options.median(runs)) : null,
      runs,
      receiverUdpDrops,
      ...(errors.length > 0 ? { errors } : {}),
    };
  });
}

/** The browser cells; an empty list, after one line on stderr, when Chromium is missing. */
export async function measureBrowserCells(options: BrowserCellOptions): Promise<BrowserCell[]> {
  const real = findChromium();
  if (real === undefined) {
    console.error(`bench:wan: browser cells skipped. ${CHROMIUM_INSTALL_HINT}`);
    return [];
  }
  const file = join(options.scratch, 'browser-payload.bin');
  await writePayload(file, BROWSER_BYTES);
  const line = await startDelayLine(options.lineBinary, options.netns, {
    rttMs: BROWSER_RTT_MS,
    lossPct: BROWSER_LOSS_PCT,
    rateBytesPerS: options.rateBytesPerS,
  });
  try {
    const browser = await chromium.launch({
      executablePath: await chromiumLauncher(options.scratch, options.netns.b.namespace, real),
      headless: true,
      // The bench's own cleanup ends Chromium with namespace b; Playwright's handlers would end
      // the whole process first on Ctrl-C, leaving the temporary folder behind.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      // Host addresses in the candidates (the native end cannot resolve mDNS names), and the
      // page treated as the secure origin the public web client is served from.
      args: [
        ...CHROMIUM_ARGS,
        SHOW_HOST_ADDRESSES,
        `--unsafely-treat-insecure-origin-as-secure=${options.webUrl}`,
      ],
    });
    try {
      return await measureDirections({ options, line, browser, file });
    } finally {
      await browser.close();
    }
  } finally {
    await line.stop();
    await rm(file, { force: true });
  }
}
