import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSignalingServer } from '../src-main/signaling-server';
import { requireTool } from './support/required-tools';
import { ChildProgram, REPO_ROOT } from './support/web-client/child-program';
import { ensureRendererBuilt } from './support/web-client/renderer-build';
import { digestTree, randomFile, scratchDir } from './support/web-client/test-files';

type RunningServer = Awaited<ReturnType<typeof startSignalingServer>>;

// The runtime of ELECTRON_OVERRIDE_DIST_PATH; without one every test here is skipped, saying so.
const ELECTRON = requireTool('electron');
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

let server: RunningServer;
let scratch: ReturnType<typeof scratchDir>;
let app: ElectronApplication | undefined;

async function launch(extraArgs: string[] = []): Promise<ElectronApplication> {
  ensureRendererBuilt();
  const userData = join(scratch.path, 'user-data');
  mkdirSync(userData, { recursive: true });
  writeFileSync(
    join(userData, 'settings.json'),
    JSON.stringify({ serverUrl: server.url, downloadFolder: join(scratch.path, 'Downloads') }),
  );
  app = await electron.launch({
    executablePath: ELECTRON,
    args: [REPO_ROOT, ...extraArgs],
    cwd: REPO_ROOT,
    env: { ...process.env, FERRY_USER_DATA_DIR: userData },
  });
  return app;
}

test.beforeEach(async () => {
  scratch = scratchDir('electron');
  server = await startSignalingServer({
    port: 0,
    host: '127.0.0.1',
    log: { info: () => undefined, error: () => undefined },
  });
});

test.afterEach(async () => {
  await app?.close();
  app = undefined;
  await server.close();
  scratch.remove();
});

test('the desktop app launches into a secure window showing the send screen', async () => {
  const window = await (await launch()).firstWindow();
  await expect(window).toHaveTitle('Ferry');
  await expect(window.getByTestId('drop-zone')).toBeVisible();
  // The renderer is sandboxed: no Node in the page, only the bridge.
  expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
    'undefined',
  );
  expect(await window.evaluate(() => typeof (window as { ferry?: unknown }).ferry)).toBe('object');
});

test('the window is served from the app origin and reaches no local file, window or worker', async () => {
  const page = await (await launch()).firstWindow();
  expect(page.url()).toBe('ferry://app/index.html');
  const attempts = await page.evaluate(async () => {
    const fileRead = await fetch('file:///etc/hostname').then(
      () => 'read',
      () => 'refused',
    );
    const opened = window.open('https://example.com') === null ? 'refused' : 'opened';
    let worker = 'refused';
    try {
      new Worker(URL.createObjectURL(new Blob([''], { type: 'text/javascript' })));
      worker = 'started';
    } catch {
      // The desktop CSP allows no workers.
    }
    return { fileRead, opened, worker };
  });
  expect(attempts).toEqual({ fileRead: 'refused', opened: 'refused', worker: 'refused' });
});

test('files opened with the app are sent and a command-line receiver gets them', async () => {
  const photos = join(scratch.path, 'Photos');
  randomFile(photos, 'a.jpg', 200_000);
  randomFile(photos, 'trip/b.jpg', 300_000);
  const window = await (await launch([photos])).firstWindow();
  await expect(window.getByText('Photos')).toBeVisible();
  await window.getByRole('button', { name: 'Send', exact: true }).click();
  const code = (await window.getByTestId('transfer-code').textContent())?.trim() ?? '';

  const inbox = join(scratch.path, 'inbox');
  const receiver = new ChildProgram('src-main/cli/main.ts', [
    'receive',
    '--server',
    server.url,
    '--out',
    inbox,
    '--yes',
    code,
  ]);
  expect(await receiver.waitForExit(60_000)).toBe(0);
  expect(Object.values(digestTree(inbox)).sort()).toEqual(Object.values(digestTree(photos)).sort());
});

test('a command-line sender is accepted in the app and the files land in Downloads', async () => {
  const outbox = join(scratch.path, 'outbox');
  randomFile(outbox, 'report.pdf', 500_000);
  const sender = new ChildProgram('src-main/cli/main.ts', [
    'send',
    '--server',
    server.url,
    join(outbox, 'report.pdf'),
  ]);
  const [, code] = await sender.waitForLine(CODE_LINE, 30_000);

  const window = await (await launch()).firstWindow();
  await window.getByRole('tab', { name: 'Receive' }).click();
  await window.getByLabel('Code').fill(code);
  await window.getByRole('button', { name: 'Receive', exact: true }).click();
  await window.getByRole('button', { name: 'Accept' }).click();
  await expect(window.getByTestId('transfer-done')).toBeVisible({ timeout: 60_000 });
  expect(await sender.waitForExit(30_000)).toBe(0);
  expect(digestTree(join(scratch.path, 'Downloads'))).toEqual(digestTree(outbox));
});
