import { expect, test, type Browser } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { cleanDeviceName } from '../src-shared/devices/device-name';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { desktopController } from './support/web-client/desktop-controller-peer';
import { randomFile, scratchDir } from './support/web-client/test-files';
import { startWebClient, type RunningWebClient } from './support/web-client/web-client-host';

requireTool('chromium');

// docs/protocol.md, "The name shown": the sender's name is the first line of the receiver's
// prompt and is on its done screen, whichever programs the two are.
const COMPUTER = cleanDeviceName(hostname()) ?? 'Ferry';
// Headless Chromium on the test machine names itself by its user agent.
const PAGE_NAME = /^Chrome on [A-Za-z]+$/;

let web: RunningWebClient;
let scratch: ReturnType<typeof scratchDir>;
let file: string;
const pages: FerryPage[] = [];

test.beforeAll(async () => {
  web = await startWebClient();
  scratch = scratchDir('names');
  file = randomFile(scratch.path, 'note.txt', 2048);
});
test.afterAll(async () => {
  await web.close();
  scratch.remove();
});
test.afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

async function browserPeer(browser: Browser): Promise<FerryPage> {
  const page = await openPeer(browser, web.url);
  pages.push(page);
  return page;
}

function destination(name: string): string {
  mkdirSync(join(scratch.path, 'received'), { recursive: true });
  return mkdtempSync(join(scratch.path, 'received', `${name}-`));
}

/** Names the page as a person does, in its Remembered devices. */
async function rename(peer: FerryPage, name: string): Promise<void> {
  const panel = peer.page.getByTestId('web-devices');
  if ((await panel.getAttribute('open')) === null) {
    await panel.getByText('Remembered devices', { exact: true }).click();
  }
  await peer.page.getByTestId('device-name').fill(name);
  await peer.page.getByTestId('device-name-save').click();
  await expect(peer.page.getByTestId('device-name')).toHaveValue(name);
}

/** The prompt's first line, then the done screen's, on a receiving page. */
async function receivedOnPage(receiver: FerryPage, code: string, from: string | RegExp) {
  await receiver.receive(code);
  const heading = receiver.page.getByRole('heading', { name: 'Incoming files' });
  await expect(heading).toBeVisible({ timeout: 60_000 });
  await expect(receiver.page.getByTestId('peer-name')).toHaveText(
    typeof from === 'string' ? `From ${from}` : new RegExp(`^From ${from.source.slice(1)}`),
  );
  // The first line after the heading is the name.
  await expect(heading.locator('xpath=following-sibling::*[1]')).toHaveAttribute(
    'data-testid',
    'peer-name',
  );
  await receiver.accept();
  await receiver.done();
  await expect(receiver.page.getByTestId('peer-name')).toHaveText(
    typeof from === 'string'
      ? `Received from ${from}`
      : new RegExp(`^Received from ${from.source.slice(1)}`),
  );
}

test('page → page: the sender’s name first on the prompt and on the done screen; renamed, its new name next time', async ({
  browser,
}) => {
  const sender = await browserPeer(browser);
  const receiver = await browserPeer(browser);
  await expect(sender.page.getByTestId('web-devices')).toBeAttached();

  // Its default, from the user agent.
  await receivedOnPage(receiver, await sender.send([file]), PAGE_NAME);
  await sender.done();

  await rename(sender, 'Ana’s phone');
  await sender.page.getByRole('button', { name: 'Send more' }).click();
  await receiver.page.getByRole('button', { name: 'Receive another' }).click();
  await receivedOnPage(receiver, await sender.send([file]), 'Ana’s phone');
  expect(await sender.done()).toContain('Sent to ');

  // Kept in IndexedDB: the page goes by it after a reload.
  await sender.page.reload();
  await sender.page
    .getByTestId('web-devices')
    .getByText('Remembered devices', { exact: true })
    .click();
  await expect(sender.page.getByTestId('device-name')).toHaveValue('Ana’s phone');
});

test('page → CLI: the page’s name on the Incoming: line; the command line’s on the page’s steps', async ({
  browser,
}) => {
  const sender = await browserPeer(browser);
  await rename(sender, 'Bea tablet');
  const code = await sender.send([file]);
  const receiving = commandLine.receive(web.url, code, {
    destination: destination('cli'),
    ask: true,
  });
  await receiving.offered();
  // The receiver's answer named it before the person decided.
  await expect(
    sender.page.getByRole('heading', { name: `Waiting for ${COMPUTER} to accept` }),
  ).toBeVisible();
  receiving.answer(true);
  const outcome = await receiving.finished();
  expect(outcome.exitCode).toBe(0);
  expect(outcome.output).toMatch(
    /^Incoming: 1 file, 2\.0 kB in all, "note\.txt", from Bea tablet/m,
  );
  await expect(sender.page.getByTestId('peer-name')).toHaveText(`Sent to ${COMPUTER}`, {
    timeout: 60_000,
  });
});

test('CLI → page: the command line’s name first on the prompt and on the done screen', async ({
  browser,
}) => {
  const sending = await commandLine.send(web.url, [file]);
  const receiver = await browserPeer(browser);
  await receivedOnPage(receiver, sending.code, COMPUTER);
  expect((await sending.finished()).exitCode).toBe(0);
});

test('desktop → CLI: the desktop app’s name on the Incoming: line', async () => {
  const sending = await desktopController.send(web.url, [file]);
  const receiving = commandLine.receive(web.url, sending.code, {
    destination: destination('desktop'),
    ask: false,
  });
  const outcome = await receiving.finished();
  expect(outcome.exitCode).toBe(0);
  expect(outcome.output).toContain(`"note.txt", from ${COMPUTER}`);
  expect((await sending.finished()).exitCode).toBe(0);
});
