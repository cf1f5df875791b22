// What the desktop controller needs from the operating system. The Electron shell supplies the
// real ones; the e2e test bridge supplies its own, so the controller runs without Electron.

export interface DesktopDialogs {
  /** Empty when the person cancels. */
  pickFiles(): Promise<string[]>;
  pickFolder(): Promise<string[]>;
  pickDownloadFolder(): Promise<string | null>;
}

export interface DesktopShell {
  openFolder(path: string): Promise<void>;
  revealFile(path: string): void;
}
