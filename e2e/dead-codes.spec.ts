import { expect, test, type TestInfo } from '@playwright/test';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

// docs/protocol.md, "Dead codes": a code that leads to no one says why, each case in its own
// words, and offers Back to the code as typed, never a Try again that would dial it again.
requireTool('chromium');

const rig = usePageRig('dead-codes');

/** Keeps what the page shows now, for a person to look at. */
async function keep(peer: FerryPage, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await peer.page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/**
 * Types `code` on a fresh page, expects the failure `heading` with `sentence` and only Back, and
 * checks that Back leads to the code as typed, still editable.
 */
async function deadCode(
  receiver: FerryPage,
  code: string,
  heading: string,
  sentence: string,
  shot: { testInfo: TestInfo; name: string },
): Promise<void> {
  await receiver.receive(code);
  const card = receiver.page.getByRole('alert', { name: heading });
  await expect(card).toBeVisible();
  await expect(card).toContainText(sentence);
  await expect(card).not.toContainText(/connection/i);
  await expect(card.getByRole('button')).toHaveText(['Back']);
  await expect(receiver.page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await keep(receiver, shot.testInfo, shot.name);

  await card.getByRole('button', { name: 'Back' }).click();
  const field = receiver.page.getByRole('combobox', { name: 'Code' });
  await expect(field).toHaveValue(code);
  await expect(field).toBeEditable();
}

/** How the server says `code` ended, as only Ferry reads it. */
async function releasedAs(code: string): Promise<string | null> {
  const answer = await fetch(`${rig.web.serverUrl}/api/code/${code}`);
  return answer.headers.get('ferry-code-outcome');
}

const USED = [
  'That code was already used',
  'That code was already used and its transfer has ended',
];
const CANCELLED = ['That code was cancelled', 'The sender cancelled that code'];

test.describe('codes that lead to no one, typed in the web client', () => {
  test('a code never issued: "That code did not work", and Back', async ({ browser }, testInfo) => {
    const receiver = await rig.browserPeer(browser);
    await deadCode(receiver, 'plum-otter-cask', 'That code did not work', 'Code not found', {
      testInfo,
      name: 'never-issued',
    });
  });

  test('a code whose transfer finished, from the command line: "already used"', async ({
    browser,
  }, testInfo) => {
    const file = randomFile(rig.scratch.path, 'used-cli/a.bin', 1000);
    const sending = await commandLine.send(rig.web.serverUrl, [file]);
    const first = await rig.browserPeer(browser);
    await first.receive(sending.code);
    await first.accept();
    await first.done();
    expect((await sending.finished()).exitCode).toBe(0);

    const late = await rig.browserPeer(browser);
    await deadCode(late, sending.code, USED[0], USED[1], { testInfo, name: 'used-cli' });
  });

  test('a code whose transfer finished, from a page: "already used"', async ({
    browser,
  }, testInfo) => {
    const sender = await rig.browserPeer(browser);
    const first = await rig.browserPeer(browser);
    const code = await sender.send([randomFile(rig.scratch.path, 'used-page/a.bin', 1000)]);
    await first.receive(code);
    await first.accept();
    await first.done();
    await sender.done();

    const late = await rig.browserPeer(browser);
    await deadCode(late, code, USED[0], USED[1], { testInfo, name: 'used-page' });
  });

  test('a code its command-line sender cancelled before anyone came: "cancelled"', async ({
    browser,
  }, testInfo) => {
    const file = randomFile(rig.scratch.path, 'cancelled-cli/a.bin', 1000);
    const sending = await commandLine.send(rig.web.serverUrl, [file]);
    await sending.cancel();

    const receiver = await rig.browserPeer(browser);
    await deadCode(receiver, sending.code, CANCELLED[0], CANCELLED[1], {
      testInfo,
      name: 'cancelled-cli',
    });
  });

  test('a code its page sender cancelled before anyone came: "cancelled"', async ({
    browser,
  }, testInfo) => {
    const sender = await rig.browserPeer(browser);
    const code = await sender.send([randomFile(rig.scratch.path, 'cancelled-page/a.bin', 1000)]);
    await sender.cancel();
    // Cancelling before a receiver came goes back to the start at once; the page tells the
    // server in the background, which a person typing the code would never outrun.
    await expect(sender.page.getByTestId('transfer-code')).toHaveCount(0);
    await expect.poll(() => releasedAs(code)).toBe('cancelled');

    const receiver = await rig.browserPeer(browser);
    await deadCode(receiver, code, CANCELLED[0], CANCELLED[1], {
      testInfo,
      name: 'cancelled-page',
    });
  });
});
