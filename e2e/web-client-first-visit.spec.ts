import { expect, test } from '@playwright/test';
import { NOTIFY_REASON } from '../src-renderer/page/browser-notices';
import { requireTool } from './support/required-tools';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

requireTool('chromium');

// A first visit as a person meets it (issue 37, item 6): nothing the page asks for is missing,
// the keyboard starts at the tabs, and the browser's notification question has a reason said
// before it.
const rig = usePageRig('first-visit');

test('the page loads its favicon and web app manifest, and nothing it asks for is missing', async ({
  browser,
}) => {
  const missing: string[] = [];
  const peer = await rig.browserPeer(browser);
  peer.page.on('response', (response) => {
    if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
  });
  await peer.page.reload();
  await expect(peer.page.getByRole('tab', { name: 'Send' })).toBeVisible();

  const icon = await peer.page.locator('link[rel="icon"]').getAttribute('href');
  const manifest = await peer.page.locator('link[rel="manifest"]').getAttribute('href');
  expect(icon).not.toBeNull();
  expect(manifest).not.toBeNull();
  const iconResponse = await peer.page.request.get(new URL(icon ?? '', peer.page.url()).href);
  expect(iconResponse.status()).toBe(200);
  expect(iconResponse.headers()['content-type']).toContain('image/svg+xml');
  const manifestResponse = await peer.page.request.get(
    new URL(manifest ?? '', peer.page.url()).href,
  );
  expect(manifestResponse.status()).toBe(200);
  expect(await manifestResponse.json()).toMatchObject({
    name: 'Ferry',
    icons: [{ src: 'favicon.svg' }],
  });
  expect(missing).toEqual([]);
});

test('on load the keyboard starts at the tabs, not at a heading after them', async ({
  browser,
}) => {
  const peer = await rig.browserPeer(browser);
  await peer.page.reload();
  await expect(peer.page.getByRole('heading', { name: 'Send files' })).toBeVisible();
  await expect(peer.page.getByRole('heading', { name: 'Send files' })).not.toBeFocused();
  await peer.page.keyboard.press('Tab');
  await expect(peer.page.getByRole('tab', { name: 'Send' })).toBeFocused();
});

test('the reason for the notification question is said before the browser asks it', async ({
  browser,
}, testInfo) => {
  const peer = await rig.browserPeer(browser);
  expect(await peer.page.evaluate(() => Notification.permission)).toBe('default');
  await expect(peer.page.getByTestId('notify-reason')).toHaveText(NOTIFY_REASON);
  await peer.page.getByRole('tab', { name: 'Receive' }).click();
  await expect(peer.page.getByTestId('notify-reason')).toHaveText(NOTIFY_REASON);
  await peer.page.screenshot({ path: testInfo.outputPath('notify-reason.png') });
});

test('on a phone the chosen items show as whole rows, with a shadow where more lie beyond', async ({
  browser,
}, testInfo) => {
  const peer = await rig.browserPeer(browser);
  await peer.page.setViewportSize({ width: 390, height: 844 });
  const paths = Array.from({ length: 9 }, (_, i) =>
    randomFile(rig.scratch.path, `chosen/holiday-photo-with-a-long-name-${i}.jpg`, 100),
  );
  const chooser = peer.page.waitForEvent('filechooser');
  await peer.page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles(paths);

  const list = peer.page.getByRole('list', { name: 'Chosen files and folders' });
  await expect(list.getByRole('listitem')).toHaveCount(9);
  const box = await list.evaluate((element) => {
    const rows = [...element.querySelectorAll('li')].map((row) => row.getBoundingClientRect());
    const inner = element.getBoundingClientRect();
    return {
      heights: [...new Set(rows.map((row) => row.height))],
      // The rows the box shows, whole or cut.
      shown: rows.filter((row) => row.top < inner.bottom - 1).map((row) => row.bottom),
      bottom: inner.bottom - element.clientTop,
      scrolls: element.scrollHeight > element.clientHeight,
      cue: getComputedStyle(element).backgroundImage,
    };
  });
  // One row height, and the last row in sight ends at the box's inner edge: none is cut.
  expect(box.heights).toHaveLength(1);
  expect(Math.abs((box.shown.at(-1) ?? 0) - box.bottom)).toBeLessThan(1);
  expect(box.scrolls).toBe(true);
  expect(box.cue).toContain('radial-gradient');
  await list.screenshot({ path: testInfo.outputPath('selection-phone.png') });
});
