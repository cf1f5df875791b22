import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { randomFile } from './support/web-client/test-files';
import { usePageRig } from './support/web-client/page-rig';

requireTool('chromium');

// A page keeps its history in IndexedDB: what it received is listed after a reload, until the
// person clears it. Each page has its own browser context, hence its own IndexedDB.

const rig = usePageRig('history');

/** The receiver's "History" disclosure, opened. */
async function openHistory(peer: FerryPage) {
  const disclosure = peer.page.getByTestId('web-history');
  await disclosure.getByText('History', { exact: true }).click();
  await expect(
    disclosure.getByRole('checkbox', { name: 'Keep a history of finished transfers' }),
  ).toBeChecked();
  return disclosure;
}

test('a received transfer is in the history after a reload, until the history is cleared', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  const receiver = await rig.browserPeer(browser);

  const code = await sender.send([randomFile(rig.scratch.path, 'out/holiday-notes.txt', 3000)]);
  await receiver.receive(code);
  await receiver.accept();
  expect(await receiver.done()).toContain('1 file');
  expect(await sender.done()).toContain('arrived on the other device');

  const history = await openHistory(receiver);
  const entry = history.getByRole('listitem', {
    name: /^Received 1 file, 3\.0 kB from “Chrome on [A-Za-z]+” · verified · /,
  });
  await expect(entry).toBeVisible();
  await expect(entry.getByText('holiday-notes.txt')).toBeVisible();
  await expect(entry.getByText('Saved to the browser’s downloads')).toBeVisible();
  // The sender keeps its side too.
  const sent = await openHistory(sender);
  await expect(
    sent.getByRole('listitem', {
      name: /^Sent 1 file, 3\.0 kB to “Chrome on [A-Za-z]+” · verified · /,
    }),
  ).toBeVisible();

  // The history outlives the page: a reload reads it back from IndexedDB.
  await receiver.page.reload();
  await expect(receiver.page.getByRole('tab', { name: 'Send' })).toBeVisible();
  const reloaded = await openHistory(receiver);
  await expect(reloaded.getByRole('listitem', { name: /^Received 1 file/ })).toHaveCount(1);
  await reloaded.screenshot({ path: testInfo.outputPath('history.png') });

  await reloaded.getByRole('button', { name: 'Clear history' }).click();
  const question = reloaded.getByRole('group', { name: /^Clear the one entry in the history\?/ });
  await expect(question.getByRole('button', { name: 'Yes, clear history' })).toBeFocused();
  await receiver.page.screenshot({ path: testInfo.outputPath('history-confirm.png') });
  await question.getByRole('button', { name: 'Yes, clear history' }).click();
  await expect(
    reloaded.getByText('No transfers yet. Each one you finish is listed here.'),
  ).toBeVisible();
  await expect(reloaded.getByRole('listitem', { name: /^Received/ })).toHaveCount(0);

  // Cleared stays cleared.
  await receiver.page.reload();
  await expect(receiver.page.getByRole('tab', { name: 'Send' })).toBeVisible();
  const after = await openHistory(receiver);
  await expect(
    after.getByText('No transfers yet. Each one you finish is listed here.'),
  ).toBeVisible();
});

// Every outcome is kept, not only a whole batch (issue 37, item 5): a declined, a cancelled and a
// failed transfer each have their entry, with what arrived of them and who was on the other end.

/** The entry whose summary starts with `summary`, in `peer`'s opened history. */
async function entryOf(peer: FerryPage, summary: RegExp) {
  const history = await openHistory(peer);
  const entry = history.getByRole('listitem', { name: summary });
  await expect(entry).toBeVisible();
  return entry;
}

test('a declined transfer is in both histories, with nothing arrived', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  const receiver = await rig.browserPeer(browser);
  const code = await sender.send([randomFile(rig.scratch.path, 'declined/plans.txt', 2000)]);
  await receiver.receive(code);
  await receiver.decline();

  const declined = await entryOf(
    receiver,
    /^Declined — receiving 1 file, [^·]+ from “Chrome on [A-Za-z]+” · none arrived · verified · /,
  );
  await expect(declined.getByText('plans.txt')).toHaveCount(0);
  await entryOf(sender, /^Declined — sending 1 file, [^·]+ · none arrived · verified · /);
  await receiver.page.screenshot({ path: testInfo.outputPath('history-declined.png') });
});

/** Larger than a loopback moves between two screen updates, so the cancel lands mid-file. */
const LARGE_BYTES = 192 * 1024 * 1024;

test('a cancelled transfer lists the file that arrived whole before the cancel', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  const receiver = await rig.browserPeer(browser);
  const code = await sender.send([
    randomFile(rig.scratch.path, 'cancelled/a-note.txt', 3000),
    randomFile(rig.scratch.path, 'cancelled/b-film.bin', LARGE_BYTES),
  ]);
  await receiver.receive(code);
  await receiver.accept();
  await expect(receiver.page.getByText(/^File 2 of 2/)).toBeVisible({ timeout: 60_000 });
  await receiver.cancel();

  const cancelled = await entryOf(
    receiver,
    /^Cancelled — receiving 2 files, [^·]+ from “Chrome on [A-Za-z]+” · 1 of 2 files arrived · verified · /,
  );
  await expect(cancelled.getByText('a-note.txt')).toBeVisible();
  await expect(cancelled.getByText('b-film.bin')).toHaveCount(0);
  // The sender knows what arrived from the receiver's digests.
  const sent = await entryOf(
    sender,
    /^Cancelled — sending 2 files, [^·]+ · 1 of 2 files arrived · /,
  );
  await expect(sent.getByText('a-note.txt')).toBeVisible();
  await receiver.page.screenshot({ path: testInfo.outputPath('history-cancelled.png') });
});

test('a failed transfer is kept too: words that did not match, nothing arrived, not verified', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  await sender.page.getByTestId('web-settings').getByText('Settings').click();
  await sender.page.getByTestId('confirm-words-setting').click();
  const receiver = await rig.browserPeer(browser);
  const code = await sender.send([randomFile(rig.scratch.path, 'failed/letter.txt', 4096)]);
  await receiver.receive(code);
  await receiver.accept();
  await sender.page.getByTestId('words-differ').click();
  expect(await sender.failure()).toContain('The verification words were not confirmed.');

  await entryOf(sender, /^Failed — sending 1 file, [^·]+ · none arrived · not verified · /);
  await sender.page.screenshot({ path: testInfo.outputPath('history-failed.png') });
});

// The done screen and the history list a folder batch as the prompt does, as a tree of its
// folders; a remembered device's entry sends to that device again (issue 37, items 5 and 6).
test('a folder batch is the same tree on the done screen and in history; Send again goes to that device', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  const receiver = await rig.browserPeer(browser);
  const album = `${rig.scratch.path}/album`;
  for (const name of ['2024/a.txt', '2024/b.txt', 'cover.txt']) randomFile(album, name, 1000);

  const code = await sender.sendFolder(album);
  await receiver.receive(code);
  await receiver.accept();
  await receiver.done();
  await sender.done();
  for (const [peer, label] of [
    [receiver, 'Received files'],
    [sender, 'Delivered files'],
  ] as const) {
    const list = peer.page.getByRole('list', { name: label });
    await expect(list.locator(':scope > li > .file-name')).toHaveText(['album/']);
    await expect(
      list.getByRole('list', { name: 'In 2024' }).locator(':scope > li > .file-name'),
    ).toHaveText(['a.txt', 'b.txt']);
  }
  await receiver.page.screenshot({ path: testInfo.outputPath('tree-done.png') });
  await receiver.page
    .getByRole('textbox', { name: 'If the words matched, remember this device as' })
    .fill('Alice laptop');
  await receiver.page.getByRole('button', { name: 'Remember' }).click();
  await expect(receiver.page.getByText('Remembered as “Alice laptop”.')).toBeVisible();

  const entry = (await openHistory(receiver)).getByRole('listitem', { name: /^Received 3 files/ });
  const files = entry.getByRole('list', { name: 'Files' });
  await expect(files.locator(':scope > li > .file-name')).toHaveText(['album/']);
  await expect(
    files.getByRole('list', { name: 'In 2024' }).locator(':scope > li > .file-name'),
  ).toHaveText(['a.txt', 'b.txt']);
  await entry.screenshot({ path: testInfo.outputPath('tree-history.png') });

  // The sender's page is remembered now: its entry sends to it, and to it only.
  await entry.getByRole('button', { name: 'Send again to this device: Alice laptop' }).click();
  await expect(receiver.page.getByRole('tab', { name: 'Send', selected: true })).toBeVisible();
  await expect(receiver.page.getByTestId('pinned-peer')).toContainText(
    'Only “Alice laptop” can receive these files',
  );
  await expect(receiver.page.getByTestId('pinned-peer')).toBeFocused();
  await receiver.page.screenshot({ path: testInfo.outputPath('send-again.png') });
  const back = await receiver.send([randomFile(rig.scratch.path, 'reply/thanks.txt', 500)]);
  await sender.page.getByRole('button', { name: 'Send more' }).click();
  await sender.receive(back);
  await sender.accept();
  expect(await sender.done()).toContain('1 file');
  expect(await receiver.done()).toContain('arrived on the other device');
});

// A send pinned from the history is for that device only: another page that types its code is
// refused before a file moves (docs/protocol.md, "Remembered devices").
test('a send again to a remembered device refuses any other device that types the code', async ({
  browser,
}) => {
  const alice = await rig.browserPeer(browser);
  const bob = await rig.browserPeer(browser);
  const mallory = await rig.browserPeer(browser);
  const code = await alice.send([randomFile(rig.scratch.path, 'pin/hello.txt', 500)]);
  await bob.receive(code);
  await bob.accept();
  await bob.done();
  await bob.page
    .getByRole('textbox', { name: 'If the words matched, remember this device as' })
    .fill('Alice laptop');
  await bob.page.getByRole('button', { name: 'Remember' }).click();
  await expect(bob.page.getByText('Remembered as “Alice laptop”.')).toBeVisible();

  const entry = (await openHistory(bob)).getByRole('listitem', { name: /^Received 1 file/ });
  await entry.getByRole('button', { name: 'Send again to this device: Alice laptop' }).click();
  const pinned = await bob.send([randomFile(rig.scratch.path, 'pin/secret.txt', 500)]);
  await mallory.receive(pinned);
  expect(await bob.failure()).toContain('this is not “Alice laptop”');
  await expect(mallory.offer).toHaveCount(0);
});
