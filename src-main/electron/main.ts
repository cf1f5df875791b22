import {
  app,
  BrowserWindow,
  net,
  Notification,
  protocol,
  shell,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventWireName } from '../../src-shared/ipc/contract';
import { progressFraction } from '../../src-shared/transfer/progress-fraction';
import { transferNotice, type TransferNotice } from '../../src-shared/transfer/transfer-notice';
import { IDLE_TRANSFER, type TransferView } from '../../src-shared/transfer/transfer-view';
import { createDesktopController, type DesktopController } from '../desktop/desktop-controller';
import { pathsFromArgv } from '../desktop/launch-paths';
import { APP_ENTRY_URL, APP_SCHEME, DESKTOP_CSP, rendererFileFor } from './app-origin';
import { electronDialogs } from './electron-dialogs';
import { registerIpcHandlers } from './ipc-hub';
import { isTrustedSender } from './trusted-sender';
import { hardenAllContents, hardenSession } from './window-security';

// Lets a test or a source build keep settings elsewhere; a packaged app never reads it, so an
// environment variable cannot point an installed Ferry at another profile.
if (!app.isPackaged && process.env.FERRY_USER_DATA_DIR) {
  app.setPath('userData', process.env.FERRY_USER_DATA_DIR);
}

// Registered before ready, as Electron requires: a secure standard origin of the app's own.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, corsEnabled: true } },
]);

const rendererRoot = join(import.meta.dirname, '../renderer');
// `electron .` passes the app folder before any file; a packaged app does not.
const argvSkip = app.isPackaged ? 1 : 2;

let window: BrowserWindow | undefined;
/** Referenced while shown, so its click handler is not collected. */
let notification: Notification | undefined;

/** An offer or a finished transfer while the window is in the background; a click brings it up. */
function notify(notice: TransferNotice): void {
  if (!Notification.isSupported()) return;
  notification = new Notification(notice);
  notification.on('click', () => {
    window?.show();
    window?.focus();
  });
  notification.show();
}

/** Electron's value for "no progress bar" (BrowserWindow.setProgressBar). */
const NO_PROGRESS_BAR = -1;
let controller: DesktopController | undefined;
// Paths that arrive before the controller exists (macOS open-file fires early).
const earlyPaths: string[] = [];

const fromTrustedSender = (event: IpcMainInvokeEvent | IpcMainEvent): boolean =>
  isTrustedSender({
    fromAppWindow: window !== undefined && event.sender === window.webContents,
    fromMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
    frameUrl: event.senderFrame?.url,
  });

function openPaths(paths: string[]): void {
  if (paths.length === 0) return;
  if (controller) controller.openPaths(paths);
  else earlyPaths.push(...paths);
  if (window?.isMinimized()) window.restore();
  window?.focus();
}

/** Serves the built renderer, and nothing else, under the app's origin with the desktop CSP. */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFileFor(rendererRoot, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    const found = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(found.headers);
    headers.set('Content-Security-Policy', DESKTOP_CSP);
    return new Response(found.body, { status: found.status, headers });
  });
}

function createWindow(): BrowserWindow {
  const created = new BrowserWindow({
    width: 960,
    height: 720,
    minWidth: 800,
    minHeight: 600,
    title: 'Ferry',
    icon: join(import.meta.dirname, '../../resources/icons/icon.png'),
    show: false,
    webPreferences: {
      // The sandboxed preload exposes only the contract's bridge (README, "Security").
      preload: join(import.meta.dirname, '../preload/preload.cjs'), // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      // A middle click must not open a link in a new window either.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  created.once('ready-to-show', () => created.show());
  void created.loadURL(APP_ENTRY_URL);
  return created;
}

async function start(): Promise<void> {
  hardenSession();
  serveRenderer();
  controller = await createDesktopController({
    userDataDir: app.getPath('userData'),
    defaultDownloadFolder: app.getPath('downloads'),
    webClientRoot: rendererRoot,
    version: `desktop-v${app.getVersion()}`,
    dialogs: electronDialogs(() => window),
    // The controller passes only the destination and files of the transfer on screen.
    desktopShell: {
      openFolder: async (path) => {
        const problem = await shell.openPath(path);
        if (problem) throw new Error(problem);
      },
      revealFile: (path) => shell.showItemInFolder(path),
    },
  });
  const running = controller;
  registerIpcHandlers(
    running.handlers,
    (path) => running.addDroppedPath(path),
    fromTrustedSender,
    (error) => console.error(error),
  );
  let shownView: TransferView = IDLE_TRANSFER;
  running.onEvent((channel, payload) => {
    window?.webContents.send(eventWireName(channel), payload);
    if (channel !== 'transferState') return;
    const view = payload as TransferView;
    // The taskbar (dock, launcher) shows the progress the window title shows.
    window?.setProgressBar(progressFraction(view) ?? NO_PROGRESS_BAR);
    const notice = transferNotice(shownView, view);
    shownView = view;
    if (notice !== undefined && window !== undefined && !window.isFocused()) notify(notice);
  });
  running.openPaths([...earlyPaths, ...pathsFromArgv(process.argv, process.cwd(), argvSkip)]);
  window = createWindow();
  window.on('closed', () => (window = undefined));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  hardenAllContents();
  app.on('second-instance', (_event, argv, cwd) => openPaths(pathsFromArgv(argv, cwd, argvSkip)));
  // macOS delivers "Open with" and drops on the dock icon as open-file.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openPaths([path]);
  });
  app.on('window-all-closed', () => {
    void (controller?.close() ?? Promise.resolve()).finally(() => app.quit());
  });
  void app.whenReady().then(start);
}
