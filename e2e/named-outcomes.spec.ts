import { expect, test, type TestInfo } from '@playwright/test';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

// docs/protocol.md, "Named outcomes": between two pages of the web client, a decline or a cancel
// reads on the other side as the person's choice, and on this side as a plain confirmation.
requireTool('chromium');

const MiB = 1024 * 1024;
const rig = usePageRig('named-outcomes');

/** Keeps what the page shows now, for a person to look at. */
async function keep(peer: FerryPage, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await peer.page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.describe('named outcomes between two browser pages', () => {
  test('a decline: the sender reads it and can send the same files again under a new code', async ({
    browser,
  }, testInfo) => {
    const sender = await rig.browserPeer(browser);
    const receiver = await rig.browserPeer(browser);
    const code = await sender.send([randomFile(rig.scratch.path, 'declined/a.bin', 1000)]);
    await receiver.receive(code);
    await receiver.decline();

    const mine = await receiver.ended('Transfer declined');
    await expect(mine).toContainText('You declined the files.');
    await expect(mine.getByRole('button', { name: 'Back' })).toBeVisible();
    const theirs = await sender.ended('Declined by the other person');
    await expect(theirs).not.toContainText(/connection/i);
    await keep(receiver, testInfo, 'receiver-declined');
    await keep(sender, testInfo, 'sender-was-declined');

    await theirs.getByRole('button', { name: 'Send again' }).click();
    const again = sender.page.getByTestId('transfer-code');
    await expect(again).toBeVisible();
    await expect(again).not.toHaveText(code);
    await expect(sender.page.getByText(/^Sending 1 file/)).toBeVisible();
    await keep(sender, testInfo, 'sender-sends-again');
  });

  test('a sender that stops mid-transfer: the receiver reads that the sender stopped', async ({
    browser,
  }, testInfo) => {
    const sender = await rig.browserPeer(browser);
    const receiver = await rig.browserPeer(browser);
    const code = await sender.send([
      randomFile(rig.scratch.path, 'sender-stops/big.bin', 96 * MiB),
    ]);
    await receiver.receive(code);
    await receiver.accept();
    await sender.transferring();
    await sender.cancel();

    const mine = await sender.ended('Transfer stopped');
    await expect(mine).toContainText('You stopped the transfer.');
    await expect(mine.getByRole('button', { name: 'Back' })).toBeVisible();
    const theirs = await receiver.ended('Stopped by the other person');
    // Receiving again would take a code the sender no longer holds.
    await expect(theirs.getByRole('button', { name: 'Back' })).toBeVisible();
    await keep(sender, testInfo, 'sender-stopped');
    await keep(receiver, testInfo, 'receiver-was-stopped');
  });

  test('a receiver that stops mid-transfer: the sender reads that the receiver stopped', async ({
    browser,
  }, testInfo) => {
    const sender = await rig.browserPeer(browser);
    const receiver = await rig.browserPeer(browser);
    const code = await sender.send([
      randomFile(rig.scratch.path, 'receiver-stops/big.bin', 96 * MiB),
    ]);
    await receiver.receive(code);
    await receiver.accept();
    await receiver.transferring();
    await receiver.cancel();

    const mine = await receiver.ended('Transfer stopped');
    await expect(mine).toContainText('You stopped the transfer.');
    const theirs = await sender.ended('Stopped by the other person');
    await expect(theirs.getByRole('button', { name: 'Send again' })).toBeVisible();
    await keep(receiver, testInfo, 'receiver-stopped');
    await keep(sender, testInfo, 'sender-was-stopped');
  });
});
