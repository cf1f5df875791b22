import { app, session, type WebContents } from 'electron';
import { isAppUrl } from './app-origin';

/**
 * The Electron security checklist, applied to every webContents the app ever creates, so a
 * window or view nobody planned for gets it too. No screen links out, so nothing opens a window
 * or an external link: the allowlist of links is empty.
 */
function hardenContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (details) => {
    if (!details.isMainFrame || !isAppUrl(details.url)) details.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Call before the first window: guards each webContents as it is created. */
export function hardenAllContents(): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}

/** Ferry needs no camera, microphone, location or notifications permission from the web layer. */
export function hardenSession(): void {
  const allowed = new Set(['clipboard-sanitized-write']);
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(allowed.has(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) =>
    allowed.has(permission),
  );
}
