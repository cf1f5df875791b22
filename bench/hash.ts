// `npm run bench:hash [-- --mib N]`: how fast a runtime without WebCrypto hashes (a page on plain
// http, docs/architecture.md "Hashing"), against WebCrypto's `crypto.subtle.digest` on the same
// 4 MiB blocks in the same run. Each side hashes N MiB (256 by default) of random blocks through
// Ferry's own FileDigest, fed in 64 KiB chunks as a data channel delivers them: once with
// `crypto.subtle` (whole blocks to WebCrypto), once with it hidden (@noble/hashes, incremental).
// In Node, then in Chromium where it is installed: a page on http://ferry-lan.test (no secure
// context, the fallback) against the same page on http://127.0.0.1 (WebCrypto). Prints JSON: MB/s
// (10^6 bytes a second) of each, and the fallback's share of WebCrypto's rate.
import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, INSECURE_TEST_HOST } from '../e2e/support/chromium';
import { VERIFY_BLOCK_BYTES } from '../src-shared/protocol/limits';
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

/** The same loop over FileDigest, built for a page as the web client bundles it. */
async function pageScript(): Promise<string> {
  const bundled = await build({
    stdin: {
      contents: `import { FileDigest } from './src-shared/verify/file-digest';
        import { digestRate } from './bench/hash/digest-rate';
        globalThis.digestRate = (...args) => digestRate(new FileDigest(), ...args);`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'warning',
  });
  return bundled.outputFiles[0]?.text ?? '';
}

async function inChromium(executablePath: string) {
  const script = await pageScript();
  const server: Server = createServer((request, response) => {
    response.setHeader(
      'content-type',
      request.url === '/digest.js' ? 'text/javascript' : 'text/html',
    );
    response.end(request.url === '/digest.js' ? script : '<script src="/digest.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const rate = async (origin: string) => {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      const secure = await page.evaluate(() => window.isSecureContext);
      const mbps = await page.evaluate(
        (args) =>
          (
            globalThis as unknown as {
              digestRate: (mib: number, block: number, chunk: number) => Promise<number>;
            }
          ).digestRate(...args),
        [mib, VERIFY_BLOCK_BYTES, CHUNK_BYTES] as const,
      );
      await page.close();
      return { secure, mbps };
    };
    const webCrypto = await rate(`http://127.0.0.1:${port}`);
    const fallback = await rate(`http://${INSECURE_TEST_HOST}:${port}`);
    if (!webCrypto.secure || fallback.secure) throw new Error('the origins are not as intended');
    return compare(fallback.mbps, webCrypto.mbps);
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
