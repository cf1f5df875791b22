import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../src-main/signaling-server';
import { startWebHost } from '../src-main/web-host';
import { requireTool } from './support/required-tools';

requireTool('chromium');

// The page stands in for the web client: what is checked is the host's answer, not the app.
const PAGE = '<!doctype html><title>Ferry</title><button id="accept">Accept</button>';

const silent = { info: () => undefined, error: () => undefined };

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    });
  });
}

/** A page on its own origin (its own port) that frames `targets`, one iframe each, by name. */
async function framingSite(targets: Record<string, string>): Promise<Server & { url: string }> {
  const frames = Object.entries(targets)
    .map(([name, url]) => `<iframe name="${name}" src="${url}"></iframe>`)
    .join('');
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<!doctype html><title>Somewhere else</title>${frames}`);
  });
  return Object.assign(server, { url: await listen(server) });
}

test('another origin that frames the web client gets nothing, so Accept cannot be clickjacked', async ({
  page,
}) => {
  const root = mkdtempSync(join(tmpdir(), 'ferry-framing-'));
  writeFileSync(join(root, 'index.html'), PAGE);
  // The same page from a server without the host's headers: proof that the framing page can
  // show what it frames, so an empty frame below is the host's doing.
  const unprotected = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(PAGE);
  });
  let host: RunningServer | undefined;
  let framing: (Server & { url: string }) | undefined;
  try {
    host = await startWebHost({ root, port: 0, host: '127.0.0.1', log: silent, signaling: {} });
    framing = await framingSite({ ferry: `${host.url}/`, control: await listen(unprotected) });
    expect(new URL(framing.url).origin).not.toBe(new URL(host.url).origin);
    await page.goto(framing.url);

    const control = page.frame({ name: 'control' });
    await expect(control!.locator('#accept')).toHaveCount(1);
    const ferry = page.frame({ name: 'ferry' });
    expect(ferry).not.toBeNull();
    await expect(ferry!.locator('#accept')).toHaveCount(0);
    expect(ferry!.url()).not.toBe(`${host.url}/`);

    // Opened on its own, the same page shows its button.
    await page.goto(`${host.url}/`);
    await expect(page.locator('#accept')).toHaveCount(1);
  } finally {
    await host?.close();
    framing?.close();
    unprotected.close();
    rmSync(root, { recursive: true, force: true });
  }
});
