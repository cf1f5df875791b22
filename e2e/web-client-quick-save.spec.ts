import { expect, test } from '@playwright/test';
import { NO_FOLDER_FOR_QUICK_SAVE } from '../src-renderer/backend/browser/quick-save';
import { requireTool } from './support/required-tools';
import { openPeer } from './support/web-client/browser-peers';
import { CHOSEN_FOLDER, digestChosenFolder } from './support/web-client/chosen-folder';
import type { FerryPage } from './support/web-client/ferry-page';
import { usePageRig, wordsOn } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

requireTool('chromium');

// docs/protocol.md, "Remembered devices": a page saves a remembered device's files without
// asking only into the folder the person chose; without one it asks and says why.

const rig = usePageRig('quick-save');
const OFFER_TIMEOUT_MS = 60_000;

/** Sends `path` from `sender` and has `receiver` enter the code. */
async function offer(sender: FerryPage, receiver: FerryPage, path: string): Promise<void> {
  const code = await sender.send([path]);
  await receiver.receive(code);
}

async function again(sender: FerryPage, receiver: FerryPage): Promise<void> {
  await sender.page.getByRole('button', { name: 'Send more' }).click();
  await receiver.page.getByRole('button', { name: 'Receive another' }).click();
}

test('a remembered device set to save without asking lands in the chosen folder only', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  const receiver = await openPeer(browser, rig.web.url, { choosesFolder: true });
  try {
    // Met once, the words compared, and remembered.
    await offer(sender, receiver, randomFile(rig.scratch.path, 'first/notes.txt', 4096));
    expect(await wordsOn(receiver)).toBe(await wordsOn(sender));
    await receiver.accept();
    expect(await receiver.done()).toContain('1 file');
    await receiver.page
      .getByRole('textbox', { name: 'If the words matched, remember this device as' })
      .fill('Alice laptop');
    await receiver.page.getByRole('button', { name: 'Remember' }).click();
    await expect(receiver.page.getByText('Remembered as “Alice laptop”.')).toBeVisible();

    // Set to save without asking.
    await receiver.page.getByText('Remembered devices', { exact: true }).click();
    const quick = receiver.page.getByRole('checkbox', {
      name: 'Accept files from this device without asking',
    });
    // The box shows what is stored, so it ticks once IndexedDB has the change.
    await quick.click();
    await expect(quick).toBeChecked();
    await again(sender, receiver);

    // No folder chosen yet: asked as before, with the reason; the person chooses one here.
    await offer(sender, receiver, randomFile(rig.scratch.path, 'second/asked.txt', 4096));
    await expect(receiver.offer).toBeVisible({ timeout: OFFER_TIMEOUT_MS });
    await expect(receiver.page.getByText(NO_FOLDER_FOR_QUICK_SAVE)).toBeVisible();
    await receiver.page.screenshot({ path: testInfo.outputPath('asked-without-folder.png') });
    await receiver.changeFolder();
    await expect(receiver.page.getByText(CHOSEN_FOLDER, { exact: true })).toBeVisible();
    await receiver.accept();
    expect(await receiver.done()).toContain('1 file');
    await again(sender, receiver);

    // With the folder chosen: no prompt, straight into it. The page notes any Accept button it
    // ever shows, however briefly.
    await receiver.page.evaluate(() => {
      const seen = { accept: false };
      Object.assign(window, { ferryAcceptSeen: seen });
      new MutationObserver(() => {
        const buttons = [...document.querySelectorAll('button')];
        if (buttons.some((button) => button.textContent?.trim() === 'Accept')) seen.accept = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await offer(sender, receiver, randomFile(rig.scratch.path, 'third/unasked.txt', 4096));
    expect(await receiver.done()).toContain('1 file');
    expect(await sender.done()).toContain('arrived on the other device');
    await receiver.page.screenshot({ path: testInfo.outputPath('saved-unasked.png') });
    const acceptSeen = await receiver.page.evaluate(
      () => (window as unknown as { ferryAcceptSeen: { accept: boolean } }).ferryAcceptSeen.accept,
    );
    expect(acceptSeen).toBe(false);
    expect(Object.keys(await digestChosenFolder(receiver.page)).sort()).toEqual([
      'asked.txt',
      'unasked.txt',
    ]);
  } finally {
    await receiver.close();
  }
});
