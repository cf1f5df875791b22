// `npm run bench:hash [-- --mib N]`: how fast a runtime without WebCrypto hashes (a page on plain
// http, docs/architecture.md "Hashing"), against WebCrypto's `crypto.subtle.digest` on the same
// 4 MiB blocks in the same run. Each side hashes N MiB (256 by default) of random blocks through
// Ferry's own FileDigest, fed in 64 KiB chunks as a data channel delivers them: once with
// `crypto.subtle` (whole blocks to WebCrypto), once with it hidden (@noble/hashes, incremental).
// In Node, then in Chromium where it is installed: a page on http://ferry-lan.test (no secure
// context, the fallback) against the same page on http://127.0.0.1 (WebCrypto), and the fallback
// once more in the web client's hash workers, as the web client runs it. Prints JSON: MB/s (10^6
// bytes a second) of each, and each fallback's share of WebCrypto's rate in the same run.
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, INSECURE_TEST_HOST } from '../e2e/support/chromium';
import { VERIFY_BLOCK_BYTES, VERIFY_BLOCKS_IN_FLIGHT } from '../src-shared/protocol/limits';
import { FileDigest } from '../src-shared/verify/file-digest';
import { digestRate } from './hash/digest-rate';

const DEFAULT_MIB = 256;
/** What one data-channel message carries to the receiver's digest (docs/protocol.md, "Chunks"). */
const CHUNK_BYTES = 64 * 1024;
const MiB = 1024 * 1024;

const { values } = parseArgs({ options: { mib: { type: 'string' } } });
const mib = Number(values.mib ?? DEFAULT_MIB);
if (!Number.isSafeInteger(mib) || mib < 4) throw new Error('--mib takes a count of 4 or more');

const round = (rate: number): number => Math.round(rate * 10) / 10;
const compare = (fallback: number, webCrypto: number) => ({
  fallbackMBps: round(fallback),
  webCryptoMBps: round(webCrypto),
  ratio: Math.round((fallback / webCrypto) * 100) / 100,
});

async function inNode() {
  const webCrypto = await digestRate(new FileDigest(), mib, VERIFY_BLOCK_BYTES, CHUNK_BYTES);
  const real = globalThis.crypto;
  Object.defineProperty(globalThis, 'crypto', {
    configurable: true,
    value: { getRandomValues: real.getRandomValues.bind(real) },
  });
  try {
    const fallback = await digestRate(new FileDigest(), mib, VERIFY_BLOCK_BYTES, CHUNK_BYTES);
    return compare(fallback, webCrypto);
  } finally {
    Object.defineProperty(globalThis, 'crypto', { configurable: true, value: real });
  }
}

/** A TypeScript entry bundled for a page, as the web client bundles it. */
async function bundle(contents: string): Promise<string> {
  const bundled = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'warning',
  });
  return bundled.outputFiles[0]?.text ?? '';
}

type PageMode = 'main thread' | 'workers';

/**
 * The same loop over FileDigest in a page: on the page's thread (WebCrypto, or JavaScript where
 * the page has none), or with the web client's hash workers (hash-worker-pool.ts).
 */
const PAGE_ENTRY = `
  import { FileDigest } from './src-shared/verify/file-digest';
  import { workerPoolSha256 } from './src-renderer/backend/browser/hash-worker-pool';
  import { digestRate } from './bench/hash/digest-rate';
  globalThis.digestRate = (mode, ...args) => {
    const workers = mode === 'workers'
      ? workerPoolSha256(() => new Worker('/hash-worker.js'), navigator.hardwareConcurrency)
      : undefined;
    return digestRate(new FileDigest([], undefined, undefined, workers), ...args);
  };`;

async function inChromium(executablePath: string) {
  const files = new Map([
    ['/digest.js', await bundle(PAGE_ENTRY)],
    ['/hash-worker.js', await bundle("import './src-renderer/backend/browser/hash-worker';")],
  ]);
  const server: Server = createServer((request, response) => {
    const script = files.get(request.url ?? '');
    response.setHeader('content-type', script === undefined ? 'text/html' : 'text/javascript');
    response.end(script ?? '<script src="/digest.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const rate = async (origin: string, mode: PageMode) => {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      const measured = await page.evaluate(
        async ([how, ...args]) => {
          const run = (
            globalThis as unknown as {
              digestRate: (
                mode: PageMode,
                mib: number,
                block: number,
                chunk: number,
              ) => Promise<number>;
            }
          ).digestRate;
          const secure = (globalThis as unknown as { isSecureContext: boolean }).isSecureContext;
          return { secure, mbps: await run(how, ...args) };
        },
        [mode, mib, VERIFY_BLOCK_BYTES, CHUNK_BYTES] as const,
      );
      await page.close();
      return measured;
    };
    const webCrypto = await rate(`http://127.0.0.1:${port}`, 'main thread');
    const fallback = await rate(`http://${INSECURE_TEST_HOST}:${port}`, 'main thread');
    const workers = await rate(`http://${INSECURE_TEST_HOST}:${port}`, 'workers');
    if (!webCrypto.secure || fallback.secure || workers.secure) {
      throw new Error('the origins are not as intended');
    }
    const share = (rate: number) => Math.round((rate / webCrypto.mbps) * 100) / 100;
    return {
      webCryptoMBps: round(webCrypto.mbps),
      fallbackMBps: round(fallback.mbps),
      ratio: share(fallback.mbps),
      // What the web client does without WebCrypto: whole blocks to its hash workers.
      inWorkers: {
        MBps: round(workers.mbps),
        ratio: share(workers.mbps),
        workers: Math.max(1, Math.min(VERIFY_BLOCKS_IN_FLIGHT, os.availableParallelism() - 1)),
      },
    };
  } finally {
    await browser.close();
    server.close();
  }
}

const chromiumPath = findChromium();
const node = await inNode();
const browser =
  chromiumPath === undefined ? 'Chromium not found: skipped' : await inChromium(chromiumPath);
console.log(
  JSON.stringify({ mib, blockMiB: VERIFY_BLOCK_BYTES / MiB, node, chromium: browser }, null, 2),
);
