import { expect, test } from '@playwright/test';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createNetnsPair, typeScriptArgs, type NetnsPair } from './support/netns';
import { requireNetns } from './support/required-netns';
import { digestTree, randomFile, scratchDir } from './support/web-client/test-files';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'src-main/cli/main.ts');
const IMPOSTOR = join(ROOT, 'e2e/support/restored-room-impostor.ts');
const SIZE = 512 * 1024 * 1024;
/** How long the route stays cut: longer than the 4 s of silence that means "lost". */
const CUT_MS = 5_000;
const RECONNECTING = /^Connection lost — reconnecting \(attempt \d+\)…/m;

let lan: NetnsPair | undefined;
let scratch: ReturnType<typeof scratchDir>;

test.beforeEach(async () => {
  await requireNetns('cut a route');
  scratch = scratchDir('reconnect');
  lan = await createNetnsPair();
});

test.afterEach(async () => {
  await lan?.destroy();
  scratch?.remove();
});

function bytesOnDisk(folder: string): number {
  const part = join(folder, 'big.bin.part');
  return existsSync(part) ? statSync(part).size : 0;
}

test('a route cut for 5 s mid-transfer is restored by both command-line peers, without a new code', async () => {
  test.setTimeout(180_000);
  const { a, b } = lan!;
  const outbox = join(scratch.path, 'outbox');
  const source = randomFile(outbox, 'big.bin', SIZE);
  const inbox = join(scratch.path, 'inbox');

  const server = a.spawn('/usr/bin/env', [
    `HOST=${a.address}`,
    'PORT=0',
    process.execPath,
    ...typeScriptArgs(join(ROOT, 'src-main/signaling-server/main.ts')),
  ]);
  const url = /(http:\/\/\S+)/.exec(await server.waitForLine(/listening on /, 30_000))?.[1] ?? '';
  const sender = a.spawn(process.execPath, typeScriptArgs(CLI, 'send', '--server', url, source));
  const code = (await sender.waitForLine(/^Code: /, 30_000)).slice('Code: '.length);
  const receiver = b.spawn(
    process.execPath,
    typeScriptArgs(CLI, 'receive', '--server', url, '--out', inbox, '--yes', code),
  );

  await expect
    .poll(() => bytesOnDisk(inbox), { timeout: 60_000, intervals: [20] })
    .toBeGreaterThan(SIZE / 8);
  // Someone who learned the code waits where a room derived from the code's room would be
  // (docs/protocol.md, "Reconnect"): the two must meet again elsewhere, where only they can.
  const impostor = a.spawn(process.execPath, typeScriptArgs(IMPOSTOR, url, code));
  await impostor.waitForLine(/^waiting in the restored room$/, 30_000);
  const restore = await lan!.cutRoute();
  await new Promise((resolveCut) => setTimeout(resolveCut, CUT_MS));
  await restore();

  expect(await receiver.waitForExit(120_000), receiver.transcript()).toBe(0);
  expect(await sender.waitForExit(30_000), sender.transcript()).toBe(0);
  expect(receiver.transcript()).toMatch(RECONNECTING);
  expect(sender.transcript()).toMatch(RECONNECTING);
  expect(sender.transcript()).toMatch(/^Delivered and verified 1 file/m);
  expect(digestTree(inbox)).toEqual(digestTree(outbox));
  expect(impostor.transcript()).not.toMatch(/a peer connected to the impostor/);
  // What travelled twice (the cut block is sent again) arrived once: the report is the batch.
  expect(await totalBytesReported(a, url)).toBe(SIZE);
});

/** The server's byte counter, read from inside the namespace that can reach it. */
async function totalBytesReported(host: NetnsPair['a'], url: string): Promise<number> {
  const script = `fetch(${JSON.stringify(`${url}/api/stats`)}).then((r) => r.json()).then((s) => console.log('total ' + s.totalBytes))`;
  const reader = host.spawn(process.execPath, ['-e', script]);
  expect(await reader.waitForExit(30_000), reader.transcript()).toBe(0);
  return Number(/^total (\d+)$/m.exec(reader.transcript())?.[1]);
}
