import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import { commandLine } from './support/web-client/native-peers';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startSplitWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

test('a web client whose signaling server is on another origin finds it through /api/config', async ({
  browser,
}) => {
  const hosted = await startSplitWebClient();
  const scratch = scratchDir('hosted');
  const sender = await openPeer(browser, hosted.url);
  try {
    expect(new URL(hosted.serverUrl).origin).not.toBe(new URL(hosted.url).origin);
    const file = randomFile(scratch.path, 'send/plan.pdf', 800_000);
    const code = await sender.send([file]);
    // The code lives on the signaling server, where a command-line receiver resolves it.
    const into = join(scratch.path, 'received');
    const receiving = commandLine.receive(hosted.serverUrl, code, {
      destination: into,
      ask: false,
    });
    expect((await receiving.finished()).exitCode).toBe(0);
    expect(digestTree(into)).toEqual({ 'plan.pdf': sha256(file) });
    expect(await sender.done()).toContain('arrived on the other device');
  } finally {
    await sender.close();
    await hosted.close();
    scratch.remove();
  }
});
