import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';

/** How often the receiving tab's memory is read while a transfer runs. */
const SAMPLE_INTERVAL_MS = 250;

/** The peaks seen while sampling, in bytes. */
export interface MemoryPeaks {
  /** The tab's JavaScript heap in use (CDP Performance.getMetrics, JSHeapUsedSize). */
  jsHeapUsed: number;
  /** The resident set of the tab's renderer process (/proc/<pid>/status, VmRSS). */
  rendererRss: number;
  /** The resident set of the browser process, which keeps Blob storage in Chromium. */
  browserRss: number;
}

/** Chromium's processes of one kind, by CDP SystemInfo.getProcessInfo. */
export async function chromiumProcesses(
  browser: Browser,
  type: 'renderer' | 'browser',
): Promise<number[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    return processInfo.filter((process) => process.type === type).map((process) => process.id);
  } finally {
    await session.detach();
  }
}

function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    // The process is gone (a closed tab): it holds nothing.
    return 0;
  }
}

/**
 * Samples the memory of `page`, whose renderer processes are `rendererPids` (the ones that
 * appeared when it opened), until `stop` is called, which resolves with the peaks.
 */
export async function sampleTabMemory(
  browser: Browser,
  page: Page,
  rendererPids: number[],
): Promise<{ stop(): Promise<MemoryPeaks> }> {
  const [browserPid] = await chromiumProcesses(browser, 'browser');
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const peaks: MemoryPeaks = { jsHeapUsed: 0, rendererRss: 0, browserRss: 0 };
  const sample = async (): Promise<void> => {
    const { metrics } = await session.send('Performance.getMetrics');
    const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
    peaks.jsHeapUsed = Math.max(peaks.jsHeapUsed, heap);
    const rss = rendererPids.reduce((sum, pid) => sum + residentBytes(pid), 0);
    peaks.rendererRss = Math.max(peaks.rendererRss, rss);
    if (browserPid !== undefined) {
      peaks.browserRss = Math.max(peaks.browserRss, residentBytes(browserPid));
    }
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await sample().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_INTERVAL_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await session.detach().catch(() => undefined);
      return peaks;
    },
  };
}
