import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

requireTool('chromium');

// The accept prompt shows every name before anything is accepted, as a tree of its folders
// (docs/protocol.md, "File list"): a person can read a 153-file batch, folder by folder.
const rig = usePageRig('tree');
const FOLDERS = ['raw/2024', 'raw/2025', 'edits', 'edits/print', 'notes'];
const PER_FOLDER = 30;

test('a 153-file tree from the command line is listed whole, folder by folder, before accepting', async ({
  browser,
}, testInfo) => {
  const album = join(rig.scratch.path, 'album');
  const names: string[] = [];
  for (const folder of FOLDERS) {
    for (let i = 0; i < PER_FOLDER; i += 1) names.push(`${folder}/photo-${i}.jpg`);
  }
  names.push('cover.jpg', '.thumbs.db', 'readme.txt');
  for (const name of names) randomFile(album, name, 64);
  expect(names).toHaveLength(153);

  const sending = await commandLine.send(rig.web.url, [album]);
  const receiver = await rig.browserPeer(browser);
  await receiver.receive(sending.code);
  await expect(receiver.offer).toBeVisible({ timeout: 60_000 });

  const list = receiver.page.getByRole('list', { name: 'Offered files' });
  const files = list.locator('li:not(.file-tree-folder) > .file-name');
  await expect(files).toHaveCount(153);
  // Each folder is a row with its totals, its files under it.
  await expect(
    list.getByRole('list', { name: 'In 2024' }).locator(':scope > li > .file-name'),
  ).toHaveCount(PER_FOLDER);
  await expect(list.locator('.file-tree-folder > .file-name').first()).toHaveText('album/');
  await expect(receiver.page.getByText('Look before accepting: 1 hidden.')).toBeVisible();
  // The keyboard reaches the list, so it can scroll it.
  await list.focus();
  await expect(list).toBeFocused();
  await receiver.page.screenshot({ path: testInfo.outputPath('tree-prompt.png') });

  await receiver.page.getByRole('button', { name: 'Decline' }).click();
  await sending.finished();
});
