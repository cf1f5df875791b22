// What the desktop controller needs from the operating system. The Electron shell supplies the
// real ones; the e2e test bridge supplies its own, so the controller runs without Electron.

/** A change the window asked for that main lets through only once the person confirms it. */
export interface ChangeQuestion {
  /** One line: what would change. */
  message: string;
  /** Why it matters, in a sentence or two. */
  detail: string;
  /** The label of the button that makes the change; the other one keeps things as they are. */
  confirmLabel: string;
}

export interface DesktopDialogs {
  /** Empty when the person cancels. */
  pickFiles(): Promise<string[]>;
  pickFolder(): Promise<string[]>;
  pickDownloadFolder(): Promise<string | null>;
  /**
   * Main's own question, outside the window's reach: true only when the person chose
   * `confirmLabel`.
   */
  confirmChange(question: ChangeQuestion): Promise<boolean>;
}

export interface DesktopShell {
  openFolder(path: string): Promise<void>;
  revealFile(path: string): void;
}
