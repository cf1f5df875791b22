import { app, BrowserWindow, shell, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventWireName } from '../../src-shared/ipc/contract';
import { createDesktopController, type DesktopController } from '../desktop/desktop-controller';
import { pathsFromArgv } from '../desktop/launch-paths';
import { electronDialogs } from './electron-dialogs';
import { registerIpcHandlers } from './ipc-hub';
import { hardenSession, hardenWindow } from './window-security';

// Lets a test (or a portable install) keep settings somewhere other than the OS default.
if (process.env.FERRY_USER_DATA_DIR) app.setPath('userData', process.env.FERRY_USER_DATA_DIR);

const rendererEntry = join(import.meta.dirname, '../renderer/index.html');
const rendererUrl = pathToFileURL(rendererEntry).href;
// `electron .` passes the app folder before any file; a packaged app does not.
const argvSkip = app.isPackaged ? 1 : 2;

let window: BrowserWindow | undefined;
let controller: DesktopController | undefined;
// Paths that arrive before the controller exists (macOS open-file fires early).
const earlyPaths: string[] = [];

const isAppUrl = (url: string | undefined): boolean => url?.split('#')[0] === rendererUrl;

const isTrustedSender = (event: IpcMainInvokeEvent): boolean =>
  window !== undefined && event.sender === window.webContents && isAppUrl(event.senderFrame?.url);

function openPaths(paths: string[]): void {
  if (paths.length === 0) return;
  if (controller) controller.openPaths(paths);
  else earlyPaths.push(...paths);
  if (window?.isMinimized()) window.restore();
  window?.focus();
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
      preload: join(import.meta.dirname, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  hardenWindow(created, isAppUrl);
  created.once('ready-to-show', () => created.show());
  void created.loadFile(rendererEntry);
  return created;
}

async function start(): Promise<void> {
  hardenSession();
  controller = await createDesktopController({
    userDataDir: app.getPath('userData'),
    defaultDownloadFolder: app.getPath('downloads'),
    webClientRoot: join(import.meta.dirname, '../renderer'),
    version: `desktop-v${app.getVersion()}`,
    dialogs: electronDialogs(() => window),
    desktopShell: {
      openFolder: async (path) => {
        const problem = await shell.openPath(path);
        if (problem) throw new Error(problem);
      },
      revealFile: (path) => shell.showItemInFolder(path),
      openExternal: (url) => shell.openExternal(url),
    },
  });
  registerIpcHandlers(controller.handlers, isTrustedSender, (error) => console.error(error));
  controller.onEvent((channel, payload) =>
    window?.webContents.send(eventWireName(channel), payload),
  );
  controller.openPaths([...earlyPaths, ...pathsFromArgv(process.argv, process.cwd(), argvSkip)]);
  window = createWindow();
  window.on('closed', () => (window = undefined));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
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
