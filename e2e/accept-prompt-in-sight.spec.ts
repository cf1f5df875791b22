import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

requireTool('chromium');

// Accept and Decline stay in sight however long the offer is (issue 37, item 4): at a laptop's
// and at a phone's size, a 200-file offer leaves both buttons in the window without scrolling,
// while the offered list scrolls in its own box.
const rig = usePageRig('prompt-in-sight');
const FILE_COUNT = 200;
const SIZES = [
  { label: 'laptop', width: 1280, height: 800 },
  { label: 'phone', width: 390, height: 844 },
] as const;

for (const size of SIZES) {
  test(`a ${FILE_COUNT}-file offer keeps Accept and Decline in sight at ${size.width}×${size.height}`, async ({
    browser,
  }, testInfo) => {
    const batch = join(rig.scratch.path, `batch-${size.label}`);
    for (let i = 0; i < FILE_COUNT; i += 1) randomFile(batch, `part-${i}.dat`, 32);

    const sending = await commandLine.send(rig.web.url, [batch]);
    const receiver = await rig.browserPeer(browser);
    await receiver.page.setViewportSize({ width: size.width, height: size.height });
    await receiver.receive(sending.code);
    await expect(receiver.offer).toBeVisible({ timeout: 60_000 });

    const list = receiver.page.getByRole('list', { name: 'Offered files' });
    await expect(list.locator('li:not(.file-tree-folder) > .file-name')).toHaveCount(FILE_COUNT);
    const accept = receiver.page.getByRole('button', { name: 'Accept' });
    const decline = receiver.page.getByRole('button', { name: 'Decline' });
    // Nothing scrolled: the page is as it opened.
    expect(await receiver.page.evaluate(() => window.scrollY)).toBe(0);
    await expect(accept).toBeInViewport();
    await expect(decline).toBeInViewport();
    await receiver.page.screenshot({ path: testInfo.outputPath(`prompt-${size.label}.png`) });

    // Scrolled to the end of the page, the buttons are still there, not under anything.
    await receiver.page.mouse.wheel(0, 10_000);
    await expect(accept).toBeInViewport();
    await receiver.page.screenshot({
      path: testInfo.outputPath(`prompt-${size.label}-scrolled.png`),
    });

    await decline.click();
    await sending.finished();
  });
}
