import { expect, test } from '@playwright/test';
import { NOTIFY_REASON } from '../src-renderer/page/browser-notices';
import { requireTool } from './support/required-tools';
import { usePageRig } from './support/web-client/page-rig';

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
