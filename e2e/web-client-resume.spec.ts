import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VERIFY_BLOCK_BYTES } from '../src-shared/protocol';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import { ChildProgram } from './support/web-client/child-program';
import {
  digestChosenFolder,
  listChosenFolder,
  putInChosenFolder,
} from './support/web-client/chosen-folder';
import { RECEIPTS_NAME } from '../src-shared/verify/receipts';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

const CLI = 'src-main/cli/main.ts';
const SIZE = 64 * 1024 * 1024;
/**
 * The first try is cut once this many blocks are kept (28 MiB of 64): the second must then move
 * at most 36 MiB, under the 60 % the test allows, and the first still has 36 MiB to go when the
 * test sees the seventh block, time for the cut to land mid-file. With 8 MiB to go (20 MiB cut at
 * 12) a busy two-core CI machine once saw the whole file arrive before the kill.
 */
const CUT_AFTER_BLOCKS = 7;
/**
 * A browser only shows its progress every 250 ms, in which a loopback transfer moves tens of MiB:
 * a file it receives is this large, and is cut once the page shows CUT_SHARE of it, so that the
 * cut lands mid-file and still keeps more than 40 % of it.
 */
const LARGE_SIZE = 128 * 1024 * 1024;
const CUT_SHARE = 0.5;
const STEP_TIMEOUT_MS = 90_000;
const UNITS = ['B', 'kB', 'MB', 'GB'];

let web: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  scratch = scratchDir('resume');
});
test.afterAll(async () => {
  await web.close();
  scratch.remove();
});
test.afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

/** Bytes from a size as every surface prints it (formatBytes: "8.4 MB", decimal units). */
function bytesOf(printed: string): number {
  const [value, unit] = printed.trim().split(' ');
  return Number(value) * 1000 ** UNITS.indexOf(unit);
}

/** How many block digests the native receiver's sidecar lists so far. */
function sidecarBlocks(folder: string, name: string): number {
  const sidecar = join(folder, `${name}.part.ferry`);
  if (!existsSync(sidecar)) return 0;
  return readFileSync(sidecar, 'utf8').split('\n').slice(1).filter(Boolean).length;
}

/** What the page's progress says has arrived of the whole batch ("12.0 MB of 100 MB · 12 %"). */
async function bytesShownDone(page: FerryPage): Promise<number> {
  const amount = page.page.getByTestId('batch-meter').locator('.meter-label > span').nth(1);
  const [, done] = /^(.+?) of /.exec((await amount.textContent()) ?? '') ?? [];
  return done === undefined ? 0 : bytesOf(done);
}

function receiveWithCli(code: string, into: string): ChildProgram {
  return new ChildProgram(CLI, [
    'receive',
    ...['--server', web.url, '--out', into, '--yes', '--no-report'],
    code,
  ]);
}

test('a browser sender resumes into a command-line receiver killed partway: only the rest travels', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'outbox/big.bin', SIZE);
  const into = join(scratch.path, 'inbox');
  mkdirSync(into, { recursive: true });
  const sender = await openPeer(browser, web.url);
  pages.push(sender);

  const first = receiveWithCli(await sender.send([file]), into);
  await expect
    .poll(() => sidecarBlocks(into, 'big.bin'), { timeout: STEP_TIMEOUT_MS, intervals: [5] })
    .toBeGreaterThanOrEqual(CUT_AFTER_BLOCKS);
  await first.stop('SIGKILL');
  const kept = statSync(join(into, 'big.bin.part')).size;
  expect(kept).toBeGreaterThanOrEqual(CUT_AFTER_BLOCKS * VERIFY_BLOCK_BYTES);
  expect(kept).toBeLessThan(SIZE);

  // The same browser, reloaded, picks the same file again: same salt, same file id.
  await sender.open(web.url);
  const second = receiveWithCli(await sender.send([file]), into);
  expect(await second.waitForExit(STEP_TIMEOUT_MS), second.output).toBe(0);

  const [, travelled] = /^Received 1 file \(([^)]+)\)/m.exec(second.output) ?? [];
  expect(bytesOf(travelled)).toBeLessThan(SIZE * 0.6);
  const [, already] =
    /^ {2}big\.bin \(verified, (.+) was already there\)$/m.exec(second.output) ?? [];
  expect(bytesOf(already)).toBeGreaterThanOrEqual(CUT_AFTER_BLOCKS * VERIFY_BLOCK_BYTES);
  const done = await sender.done();
  expect(done).toContain('Delivered and verified');
  expect(done).toContain('was already there');
  expect(digestTree(into)).toEqual({ 'big.bin': sha256(file) });
});

test('a browser receiving into a chosen folder keeps what arrived when the sender stops, and resumes it', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'outbox/movie.mkv', LARGE_SIZE);
  const receiver = await openPeer(browser, web.url, { choosesFolder: true });
  pages.push(receiver);

  const first = await commandLine.send(web.url, [file]);
  await receiver.receive(first.code);
  await receiver.changeFolder();
  await receiver.accept();
  await receiver.transferring();
  await expect
    .poll(() => bytesShownDone(receiver), { timeout: STEP_TIMEOUT_MS, intervals: [5] })
    .toBeGreaterThanOrEqual(LARGE_SIZE * CUT_SHARE);
  await first.cancel();
  // The sender's Ctrl-C is named (docs/protocol.md, "Named outcomes").
  await receiver.ended('Stopped by the other person');
  // The outcome shows while the page still puts what arrived in place (Chromium's .crswap).
  await expect
    .poll(() => listChosenFolder(receiver.page), { timeout: STEP_TIMEOUT_MS })
    .toEqual(['movie.mkv.part', 'movie.mkv.part.ferry']);

  // The same file from the same device, with a new code, into the same folder.
  await receiver.open(web.url);
  const second = await commandLine.send(web.url, [file]);
  await receiver.receive(second.code);
  await receiver.changeFolder();
  await receiver.accept();

  const done = await receiver.done();
  expect(done).toContain('Received and verified');
  expect(done).toContain('1 file, 134.2 MB saved in Received.');
  expect(done).toMatch(/was already there/);
  const sent = await second.finished();
  expect(sent.exitCode, sent.output).toBe(0);
  const [, travelled] = /^Delivered and verified 1 file \(([^)]+) sent\)/m.exec(sent.output) ?? [];
  expect(bytesOf(travelled)).toBeLessThan(LARGE_SIZE * 0.6);
  expect(await digestChosenFolder(receiver.page)).toEqual({ 'movie.mkv': sha256(file) });
});

test('a browser receiving into a chosen folder never offers a file it did not receive there, and skips one it did', async ({
  browser,
}) => {
  const file = randomFile(scratch.path, 'outbox/photo.bin', 6 * 1024 * 1024);
  const receiver = await openPeer(browser, web.url, { choosesFolder: true });
  pages.push(receiver);
  /** Sends `file` from the command line into the chosen folder; what travelled, in bytes. */
  const sendIntoFolder = async (): Promise<number> => {
    const sending = await commandLine.send(web.url, [file]);
    await receiver.receive(sending.code);
    await receiver.changeFolder();
    await receiver.accept();
    expect(await receiver.done()).toContain('Received and verified');
    const sent = await sending.finished();
    expect(sent.exitCode, sent.output).toBe(0);
    const [, travelled] =
      /^Delivered and verified 1 file \(([^)]+) sent\)/m.exec(sent.output) ?? [];
    return bytesOf(travelled);
  };
  // The very bytes the sender has, put in the folder by the person: offering them as already
  // there would tell the sender what this folder holds.
  await putInChosenFolder(receiver.page, 'photo.bin', readFileSync(file));

  // The whole file travelled: the line prints it to a tenth of a MB.
  expect(Math.abs((await sendIntoFolder()) - 6 * 1024 * 1024)).toBeLessThan(50_000);
  expect(await digestChosenFolder(receiver.page)).toEqual({
    'photo.bin': sha256(file),
    'photo (1).bin': sha256(file),
  });

  // What Ferry itself received there from the same file is skipped.
  await receiver.open(web.url);
  expect(await sendIntoFolder()).toBe(0);
  expect(await listChosenFolder(receiver.page)).toEqual([
    RECEIPTS_NAME,
    'photo (1).bin',
    'photo.bin',
  ]);
});
