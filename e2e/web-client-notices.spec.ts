import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

requireTool('chromium');

// A notice says what went wrong with the last action, and only until the next one: it never
// follows the person into a transfer it has nothing to do with.
const rig = usePageRig('notices');
const NOTICE = 'Only files and folders can be dropped here.';

test('a failed drop’s notice is gone once the person chooses files, and stays gone through the send', async ({
  browser,
}) => {
  const sender = await rig.browserPeer(browser);
  const page = sender.page;
  // Text dragged from another page: no file in it.
  const text = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.setData('text/plain', 'not a file');
    return data;
  });
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: text });
  await expect(page.getByText(NOTICE)).toBeVisible();

  const file = randomFile(rig.scratch.path, 'notice/photo.jpg', 1024);
  const code = await sender.send([file]);
  expect(code).toMatch(/^[a-z]+(-[a-z]+){2,3}$/);
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Your code' })).toBeVisible();
});
