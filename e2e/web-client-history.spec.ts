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
  const entry = history.getByRole('listitem', { name: /^Received 1 file, 3\.0 kB · verified · / });
  await expect(entry).toBeVisible();
  await expect(entry.getByText('holiday-notes.txt')).toBeVisible();
  await expect(entry.getByText('Saved to the browser’s downloads')).toBeVisible();
  // The sender keeps its side too.
  const sent = await openHistory(sender);
  await expect(
    sent.getByRole('listitem', { name: /^Sent 1 file, 3\.0 kB · verified · / }),
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
