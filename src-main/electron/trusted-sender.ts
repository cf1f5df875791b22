import { isAppUrl } from './app-origin';

/** What main knows of whoever sent an IPC message, read off Electron's event. */
export interface IpcSenderFacts {
  /** The message came from the webContents of Ferry's one window. */
  fromAppWindow: boolean;
  /** It came from that window's main frame, not from a frame inside it. */
  fromMainFrame: boolean;
  /** The URL of the frame that sent it; undefined once that frame is gone. */
  frameUrl: string | undefined;
}

/**
 * Only Ferry's own page, in its own window's main frame, may ask main for anything. A frame
 * that is not the app (another site, a local file) is refused before its payload is read.
 */
export function isTrustedSender(facts: IpcSenderFacts): boolean {
  return facts.fromAppWindow && facts.fromMainFrame && isAppUrl(facts.frameUrl);
}
