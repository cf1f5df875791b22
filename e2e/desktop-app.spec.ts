import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSignalingServer } from '../src-main/signaling-server';
import { RECEIPTS_NAME } from '../src-shared/verify/receipts';
import { startDesktopBridge, type DesktopBridge } from './support/desktop-bridge/bridge-server';
import { dropPaths, installDesktopBridge } from './support/desktop-bridge/install-bridge';
import { testControllerOptions } from './support/desktop-bridge/test-controller-options';
import { requireTool } from './support/required-tools';
import { ChildProgram } from './support/web-client/child-program';
import { ensureRendererBuilt } from './support/web-client/renderer-build';
import { digestTree, randomFile, scratchDir, sha256 } from './support/web-client/test-files';

type RunningServer = Awaited<ReturnType<typeof startSignalingServer>>;

const CLI = 'src-main/cli/main.ts';
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
// Into reports/ (not tracked): `npm run screenshots` copies it to docs/images on purpose.
const SCREENSHOT = 'reports/screenshots/send-screen.png';

requireTool('chromium');

let server: RunningServer;
let bridge: DesktopBridge;
let scratch: ReturnType<typeof scratchDir>;
let downloads: string;
const opened: string[] = [];
/** What the download-folder dialog answers in the current test. */
let chosenFolder: string | null = null;

test.beforeAll(() => ensureRendererBuilt());

test.beforeEach(async ({ page }) => {
  scratch = scratchDir('desktop');
  downloads = join(scratch.path, 'Downloads');
  mkdirSync(downloads);
  server = await startSignalingServer({
    port: 0,
    host: '127.0.0.1',
    log: { info: () => undefined, error: (line) => console.error(line) },
  });
  bridge = await startDesktopBridge(
    testControllerOptions({
      userDataDir: join(scratch.path, 'user-data'),
      defaultDownloadFolder: downloads,
      defaultServerUrl: server.url,
      lanAddress: '127.0.0.1',
      dialogs: {
        pickFiles: async () => [],
        pickFolder: async () => [],
        pickDownloadFolder: async () => chosenFolder,
        // Main's own questions: the person here changes nothing that lowers a guard.
        confirmChange: async () => false,
      },
      desktopShell: {
        openFolder: async (path) => void opened.push(path),
        revealFile: (path) => void opened.push(path),
      },
    }),
  );
  await installDesktopBridge(page, bridge.wsUrl);
  await page.goto(bridge.url);
});

test.afterEach(async () => {
  chosenFolder = null;
  await bridge.close();
  await server.close();
  scratch.remove();
});

function cli(...args: string[]): ChildProgram {
  return new ChildProgram(CLI, args);
}

async function receiveInApp(page: Page, code: string): Promise<void> {
  await page.getByRole('tab', { name: 'Receive' }).click();
  await page.getByLabel('Code').fill(`  ${code.toUpperCase()} `);
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
}

test('a dropped folder gets a code, and a command-line receiver gets it byte-identical', async ({
  page,
}) => {
  const album = join(scratch.path, 'Album');
  randomFile(album, 'cover.jpg', 300_000);
  randomFile(album, 'disc 1/01 – intro.flac', 2_500_000);
  randomFile(album, 'disc 1/empty.txt', 0);

  await dropPaths(page, [album]);
  await expect(page.getByText('Album')).toBeVisible();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const code = (await page.getByTestId('transfer-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[a-z]+(-[a-z]+){2,3}$/);
  await page.screenshot({ path: SCREENSHOT });

  const inbox = join(scratch.path, 'inbox');
  const receiver = cli('receive', '--server', server.url, '--out', inbox, '--yes', code);
  expect(await receiver.waitForExit(60_000)).toBe(0);
  expect(digestTree(inbox)).toEqual(
    Object.fromEntries(
      Object.entries(digestTree(album)).map(([name, hash]) => [`Album/${name}`, hash]),
    ),
  );
  await expect(page.getByTestId('transfer-done')).toBeVisible();
});

test('a command-line sender is asked about, accepted, and lands verified in Downloads', async ({
  page,
}) => {
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'report.pdf', 1_200_000);
  randomFile(outbox, 'notes/todo.md', 4_000);
  const sender = cli('send', '--server', server.url, outbox);
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  await receiveInApp(page, code);
  const offer = page.getByRole('region', { name: 'Incoming files' });
  await expect(offer).toContainText('and 1 more file');
  await expect(offer).toContainText(downloads);
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByTestId('transfer-done')).toBeVisible({ timeout: 60_000 });
  expect(await sender.waitForExit(30_000)).toBe(0);
  expect(digestTree(downloads)).toEqual(
    Object.fromEntries(
      Object.entries(digestTree(outbox)).map(([name, hash]) => [`outbox/${name}`, hash]),
    ),
  );
});

test('the accept prompt lists every file a command-line sender offers, flagging hidden ones and programs', async ({
  page,
}) => {
  const outbox = join(scratch.path, 'kit');
  for (let n = 1; n <= 30; n += 1)
    randomFile(outbox, `photos/img-${String(n).padStart(3, '0')}.jpg`, 1_000);
  randomFile(outbox, '.env', 100);
  randomFile(outbox, 'setup.jar', 2_000);
  const sender = cli('send', '--server', server.url, outbox);
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  await receiveInApp(page, code);
  await expect(page.getByText('Look before accepting: 1 hidden and 1 executable.')).toBeVisible();
  const listed = page.getByRole('list', { name: 'Offered files' });
  // A tree: kit/ holds photos/ (30 files), .env and setup.jar (docs/protocol.md, "File list").
  const files = listed.locator('li:not(.file-tree-folder)');
  await expect(files).toHaveCount(32);
  await expect(listed.locator('.file-tree-folder > .file-name')).toHaveText(['kit/', 'photos/']);
  await expect(files.filter({ hasText: '.env' })).toContainText('hidden');
  await expect(files.filter({ hasText: 'setup.jar' })).toContainText('executable');
  await page.screenshot({ path: 'reports/screenshots/accept-prompt.png' });
  await page.getByRole('button', { name: 'Decline' }).click();
  expect(readdirSync(downloads)).toEqual([]);
});

test('the app and a command-line sender show the same verification words', async ({ page }) => {
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'contract.pdf', 50_000);
  const sender = cli('send', '--server', server.url, join(outbox, 'contract.pdf'));
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  await receiveInApp(page, code);
  const words = page.getByTestId('peer-check').locator('.verification-words');
  await expect(words).toBeVisible();
  const [, printed] = await sender.waitForLine(
    /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/,
    30_000,
  );
  expect(await words.textContent()).toBe(printed);
  await page.screenshot({ path: 'reports/screenshots/verification-words-desktop.png' });
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByTestId('transfer-done')).toBeVisible({ timeout: 60_000 });
  expect(await sender.waitForExit(30_000)).toBe(0);
  expect(sha256(join(downloads, 'contract.pdf'))).toBe(sha256(join(outbox, 'contract.pdf')));
});

test('a folder chosen at the accept prompt is where the files land', async ({ page }) => {
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'scan.png', 80_000);
  chosenFolder = join(scratch.path, 'Scans');
  const sender = cli('send', '--server', server.url, join(outbox, 'scan.png'));
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  await receiveInApp(page, code);
  await page.getByRole('button', { name: 'Change' }).click();
  await expect(page.getByRole('region', { name: 'Incoming files' })).toContainText(chosenFolder);
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByTestId('transfer-done')).toBeVisible({ timeout: 60_000 });
  expect(await sender.waitForExit(30_000)).toBe(0);
  expect(digestTree(chosenFolder)).toEqual(digestTree(outbox));
  expect(readdirSync(downloads)).toEqual([]);
});

test('declining in the app is seen by the command-line sender at once, and nothing is written', async ({
  page,
}) => {
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'secret.bin', 10_000);
  const sender = cli('send', '--server', server.url, join(outbox, 'secret.bin'));
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  await receiveInApp(page, code);
  await page.getByRole('button', { name: 'Decline' }).click();
  // Far below the 120 s ack deadline: the close is seen at once.
  expect(await sender.waitForExit(15_000)).not.toBe(0);
  expect(readdirSync(downloads)).toEqual([]);
});

test('cancelling mid-transfer in the app keeps what arrived, never under its final name, and a new send resumes it', async ({
  page,
}) => {
  const outbox = join(scratch.path, 'outbox');
  const source = randomFile(outbox, 'big.iso', 256 * 1024 * 1024);
  const sender = cli('send', '--server', server.url, source);
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  await receiveInApp(page, code);
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByTestId('transfer-progress')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/What arrived is kept/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  // The person's own choice, said plainly (docs/protocol.md, "Named outcomes").
  await expect(page.getByRole('region', { name: 'Transfer stopped' })).toBeVisible();
  expect(await sender.waitForExit(15_000)).not.toBe(0);
  expect(readdirSync(downloads).sort()).toEqual(['big.iso.part', 'big.iso.part.ferry']);

  // Cancelled here: Back leads to the start.
  await page.getByRole('button', { name: 'Back' }).click();
  const again = cli('send', '--server', server.url, source);
  const [, secondCode] = await again.waitForLine(CODE_LINE, 30_000);
  await receiveInApp(page, secondCode);
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('heading', { name: 'Received and verified' })).toBeVisible({
    timeout: 60_000,
  });
  expect(await again.waitForExit(15_000)).toBe(0);
  // Beside it, the receipt that lets a later send of the same file skip it.
  expect(readdirSync(downloads).sort()).toEqual([RECEIPTS_NAME, 'big.iso']);
  expect(sha256(join(downloads, 'big.iso'))).toBe(sha256(source));
});

test('the LAN room switch shows a URL that a second browser opens', async ({ page, browser }) => {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('switch', { name: 'Host a LAN room' }).click();
  const url = (await page.getByTestId('lan-url').textContent())?.trim() ?? '';
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const visitor = await phone.newPage();
  const config = await visitor.request.get(new URL('/api/config', url).href);
  expect(await config.json()).toMatchObject({ socketUrl: '' });
  await visitor.goto(url);
  await expect(visitor.getByRole('tab', { name: 'Receive' })).toBeVisible();
  await phone.close();

  await page.getByRole('switch', { name: 'Host a LAN room' }).click();
  await expect(page.getByTestId('lan-url')).toBeHidden();
});

test('with "Confirm the words" on, the app sends only once the person says the words match', async ({
  page,
}) => {
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'plans.pdf', 40_000);
  await page.getByRole('tab', { name: 'Settings' }).click();
  // Checked once main saved it: the box shows the setting, not the click.
  await page.getByTestId('confirm-words-setting').click();
  await expect(page.getByTestId('confirm-words-setting')).toBeChecked();
  await page.getByRole('tab', { name: 'Send' }).click();
  await dropPaths(page, [join(outbox, 'plans.pdf')]);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const code = (await page.getByTestId('transfer-code').textContent())?.trim() ?? '';

  const inbox = join(scratch.path, 'inbox');
  // --yes: the receiver accepts at once; only the person at the app holds the bytes.
  const receiver = cli('receive', '--server', server.url, '--out', inbox, '--yes', code);
  const [, printed] = await receiver.waitForLine(
    /^Verify: ([a-z]+ [a-z]+ [a-z]+) \(check the other device shows the same words\)$/,
    30_000,
  );
  const words = page.getByTestId('peer-check').locator('.verification-words');
  await expect(words).toHaveText(printed);
  await page.screenshot({ path: 'reports/screenshots/confirm-words-desktop.png' });
  await page.getByTestId('words-match').click();

  await expect(page.getByTestId('transfer-done')).toBeVisible({ timeout: 60_000 });
  expect(await receiver.waitForExit(30_000)).toBe(0);
  expect(sha256(join(inbox, 'plans.pdf'))).toBe(sha256(join(outbox, 'plans.pdf')));
});

test('another server address is not saved unless the person confirms it in main’s dialog', async ({
  page,
}) => {
  await page.getByRole('tab', { name: 'Settings' }).click();
  const field = page.getByRole('textbox', { name: 'Server URL' });
  await field.fill('http://203.0.113.9:3001');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  // This test's dialog answers Cancel: the window shows main's refusal, and nothing changed.
  await expect(page.getByRole('status')).toContainText('Nothing was changed');
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('textbox', { name: 'Server URL' })).toHaveValue(server.url);
});
