import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requireTool } from './support/required-tools';
import { commandLine } from './support/web-client/native-peers';
import { usePageRig } from './support/web-client/page-rig';
import { digestTree, randomFile } from './support/web-client/test-files';

requireTool('chromium');

const rig = usePageRig('zip');

/**
 * A folder four levels deep, 22 files with an empty one, as a camera card might hold: more than
 * separate downloads could keep, since they would flatten it.
 */
function album(root: string): string {
  const folder = join(root, 'album');
  randomFile(folder, 'cover.jpg', 300_000);
  randomFile(folder, 'empty.txt', 0);
  randomFile(folder, 'notes/readme.md', 1_234);
  for (let day = 1; day <= 8; day += 1) {
    randomFile(folder, `raw/2024/may/IMG_${day}.cr2`, 200_000 + day * 7_919);
  }
  for (let day = 1; day <= 6; day += 1) {
    randomFile(folder, `raw/2024/june/IMG_${day}.cr2`, 150_000 + day * 104_729);
  }
  for (let shot = 1; shot <= 5; shot += 1) {
    randomFile(folder, `edits/final/web/shot-${shot}.jpg`, 40_000 + shot);
  }
  return folder;
}

test('a folder sent by the CLI arrives in the browser as one .zip that keeps it', async ({
  browser,
}, testInfo) => {
  const folder = album(rig.scratch.path);
  const sent = digestTree(folder);
  expect(Object.keys(sent)).toHaveLength(22);

  const sending = await commandLine.send(rig.web.url, [folder]);
  const receiver = await rig.browserPeer(browser);
  await receiver.receive(sending.code);
  expect(await receiver.saveTo()).toBe('Your browser’s downloads');
  const page = receiver.page;
  const zip = page.getByRole('radio', { name: 'One .zip, folders kept album.zip' });
  await expect(zip).toBeChecked();
  await expect(
    page.getByRole('radio', { name: 'Separate files (folders flattened)' }),
  ).toBeVisible();
  await expect(
    page.getByText('The .zip starts over if the connection drops', { exact: false }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('zip-choice.png'), fullPage: true });
  await receiver.accept();

  expect(await receiver.done()).toContain('22 files');
  await expect(page.getByTestId('saved-to')).toHaveText(
    'Saved to your browser’s downloads as album.zip.',
  );
  expect((await sending.finished()).exitCode).toBe(0);
  const [saved] = await receiver.savedDownloads(1);
  expect(basename(saved)).toBe('album.zip');
  expect(receiver.downloadsStarted).toBe(1);

  const unzipped = mkdtempSync(join(rig.scratch.path, 'unzipped-'));
  execFileSync('/usr/bin/unzip', ['-q', saved, '-d', unzipped]);
  const expected = Object.fromEntries(
    Object.entries(sent).map(([path, digest]) => [`album/${path}`, digest]),
  );
  expect(digestTree(unzipped)).toEqual(expected);
});
