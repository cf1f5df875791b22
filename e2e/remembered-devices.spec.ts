import { expect, test, type Browser } from '@playwright/test';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { randomFile } from './support/web-client/test-files';
import { usePageRig, wordsOn } from './support/web-client/page-rig';

requireTool('chromium');

// docs/protocol.md, "Remembered devices": a page keeps its certificate in IndexedDB, so another
// page that remembered it recognises it after a reload, until it forgets it. Each page has its
// own browser context, hence its own IndexedDB.

const rig = usePageRig('remembered');
const browserPeer = (browser: Browser) => rig.browserPeer(browser);

/** Sends `path` from `sender` to `receiver` and stops at the receiver's accept prompt. */
async function offer(sender: FerryPage, receiver: FerryPage, path: string): Promise<void> {
  const code = await sender.send([path]);
  await receiver.receive(code);
  await expect(receiver.offer).toBeVisible({ timeout: 60_000 });
}

/** Accepts on the receiver, waits for both done screens, and goes back to the start on both. */
async function finish(sender: FerryPage, receiver: FerryPage): Promise<void> {
  await receiver.accept();
  expect(await receiver.done()).toContain('1 file');
  expect(await sender.done()).toContain('arrived on the other device');
}

async function again(sender: FerryPage, receiver: FerryPage): Promise<void> {
  await sender.page.getByRole('button', { name: 'Send more' }).click();
  await receiver.page.getByRole('button', { name: 'Receive another' }).click();
}

test('a browser remembered after matching words is named on the next offer, until forgotten', async ({
  browser,
}, testInfo) => {
  const sender = await browserPeer(browser);
  const receiver = await browserPeer(browser);

  // First transfer: nothing is known, so both pages show the same words.
  await offer(sender, receiver, randomFile(rig.scratch.path, 'first/notes.txt', 4096));
  const asked = await wordsOn(receiver);
  expect(await wordsOn(sender)).toBe(asked);
  await finish(sender, receiver);

  const nameField = receiver.page.getByRole('textbox', {
    name: 'If the words matched, remember this device as',
  });
  await nameField.fill('Alice laptop');
  await receiver.page.screenshot({ path: testInfo.outputPath('remember-form.png') });
  await receiver.page.getByRole('button', { name: 'Remember' }).click();
  await expect(receiver.page.getByText('Remembered as “Alice laptop”.')).toBeVisible();

  // The list outlives the page: a reload reads it back from IndexedDB.
  await receiver.page.reload();
  await expect(receiver.page.getByRole('tab', { name: 'Send' })).toBeVisible();
  await sender.page.getByRole('button', { name: 'Send more' }).click();

  await offer(sender, receiver, randomFile(rig.scratch.path, 'second/notes.txt', 4096));
  await expect(receiver.page.getByTestId('peer-check')).toContainText(
    'Remembered device “Alice laptop”',
  );
  await receiver.page.screenshot({ path: testInfo.outputPath('remembered-prompt.png') });
  await finish(sender, receiver);
  await expect(receiver.page.getByText('Remembered device “Alice laptop”')).toBeVisible();

  // Forgotten, the same sender is a stranger again: words, no name.
  await receiver.page.getByText('Remembered devices', { exact: true }).click();
  await receiver.page.getByRole('button', { name: 'Forget Alice laptop' }).click();
  await expect(receiver.page.getByRole('button', { name: 'Forget Alice laptop' })).toHaveCount(0);
  await again(sender, receiver);

  await offer(sender, receiver, randomFile(rig.scratch.path, 'third/notes.txt', 4096));
  expect(await wordsOn(receiver)).toBe(await wordsOn(sender));
  await expect(receiver.page.getByTestId('peer-check')).not.toContainText('Remembered device');
  await finish(sender, receiver);
});
