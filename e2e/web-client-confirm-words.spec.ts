import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { WORDS_UNAVAILABLE } from '../src-shared/verify/confirm-words';
import { specReceive, specSend } from '../test-peers/spec-peer/index';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { randomFile, sha256 } from './support/web-client/test-files';
import { usePageRig, wordsOn } from './support/web-client/page-rig';

requireTool('chromium');

// "Confirm the words before any file moves" in the web client, the counterpart of the command
// line's --verify (docs/protocol.md, "Verification words"): the page sending holds every file
// byte until its person says the words match, though the receiver accepted at once.
const WORDS_LINE =
  /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/m;

const rig = usePageRig('confirm-words');

/** A page of the web client with the setting turned on, as a person does it. */
async function confirmingPage(browser: Browser): Promise<FerryPage> {
  const peer = await rig.browserPeer(browser);
  await peer.page.getByTestId('web-settings').getByText('Settings').click();
  const setting = peer.page.getByTestId('confirm-words-setting');
  await setting.click();
  await expect(setting).toBeChecked();
  return peer;
}

function folder(name: string): string {
  mkdirSync(join(rig.scratch.path, 'received'), { recursive: true });
  return mkdtempSync(join(rig.scratch.path, 'received', `${name}-`));
}

test('browser → CLI: the files go once the sending person says the words match', async ({
  browser,
}) => {
  const file = randomFile(rig.scratch.path, 'match/letter.txt', 4096);
  const sender = await confirmingPage(browser);
  const code = await sender.send([file]);
  const into = folder('match');
  const receiving = commandLine.receive(rig.web.url, code, { destination: into, ask: false });

  const shown = await wordsOn(sender);
  const match = sender.page.getByTestId('words-match');
  await expect(match).toBeVisible();
  await sender.page.screenshot({ path: 'reports/screenshots/confirm-words-sender.png' });
  await match.click();

  expect(await sender.done()).toContain('arrived on the other device');
  const received = await receiving.finished();
  expect(received.exitCode).toBe(0);
  expect(WORDS_LINE.exec(received.output)?.[1]).toBe(shown);
  expect(sha256(join(into, 'letter.txt'))).toBe(sha256(file));
});

test('browser → CLI: "They don’t match" stops the transfer, and nothing is written', async ({
  browser,
}) => {
  const file = randomFile(rig.scratch.path, 'differ/letter.txt', 4096);
  const sender = await confirmingPage(browser);
  const code = await sender.send([file]);
  const into = folder('differ');
  // --yes: the receiver accepts at once, so only the sending person's answer holds the bytes.
  const receiving = commandLine.receive(rig.web.url, code, { destination: into, ask: false });

  await wordsOn(sender);
  await sender.page.getByTestId('words-differ').click();

  expect(await sender.failure()).toContain('The verification words were not confirmed.');
  const received = await receiving.finished();
  expect(received.exitCode).not.toBe(0);
  expect(received.output).toContain('The sending person did not confirm the verification words.');
  expect(readdirSync(into)).toEqual([]);
});

test('CLI → browser: Accept counts only once the receiving person says the words match', async ({
  browser,
}) => {
  const file = randomFile(rig.scratch.path, 'accept/report.pdf', 65_536);
  const sending = await commandLine.send(rig.web.url, [file]);
  const receiver = await confirmingPage(browser);
  await receiver.receive(sending.code);

  await expect(receiver.offer).toBeVisible({ timeout: 60_000 });
  const shown = await wordsOn(receiver);
  const accept = receiver.page.getByRole('button', { name: 'Accept' });
  await expect(accept).toBeDisabled();
  await receiver.page.getByTestId('words-match').click();
  await expect(accept).toBeEnabled();
  await accept.click();

  expect(await receiver.done()).toContain('1 file');
  const sent = await sending.finished();
  expect(sent.exitCode).toBe(0);
  expect(WORDS_LINE.exec(sent.output)?.[1]).toBe(shown);
  const [saved] = await receiver.savedDownloads(1);
  expect(sha256(saved)).toBe(sha256(file));
});

// The strict spec-only peer (test-peers/) shows no words, so with the setting on it is refused
// before any file data moves, each way, and the page says why.
test('browser → spec-only receiver: refused without asking, nothing delivered', async ({
  browser,
}) => {
  const file = randomFile(rig.scratch.path, 'spec-receiver/letter.txt', 4096);
  const sender = await confirmingPage(browser);
  const code = await sender.send([file]);
  const into = folder('spec-receiver');
  const received = specReceive({ serverUrl: rig.web.serverUrl, code, dir: into }).then(
    () => 'delivered',
    () => 'refused',
  );

  expect(await sender.failure()).toContain('The verification words were not confirmed.');
  await expect(sender.page.getByRole('status')).toContainText(WORDS_UNAVAILABLE);
  await expect(sender.page.getByTestId('words-match')).toHaveCount(0);
  expect(await received).toBe('refused');
  expect(readdirSync(into)).toEqual([]);
});

test('spec-only sender → browser: declined without asking', async ({ browser }) => {
  const file = randomFile(rig.scratch.path, 'spec-sender/report.pdf', 4096);
  const receiver = await confirmingPage(browser);
  let announced: (code: string) => void = () => undefined;
  const code = new Promise<string>((resolve) => (announced = resolve));
  const sent = specSend({
    serverUrl: rig.web.serverUrl,
    files: [{ name: 'report.pdf', path: file }],
    onCode: announced,
  }).then(
    () => 'delivered',
    () => 'refused',
  );
  await receiver.receive(await code);

  await receiver.ended('Transfer declined');
  await expect(receiver.page.getByRole('status')).toContainText(WORDS_UNAVAILABLE);
  expect(await sent).toBe('refused');
});
