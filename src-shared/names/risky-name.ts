/**
 * The system a received file would be opened on. `unknown` is any other, or one a page cannot
 * tell: it is flagged by every list.
 */
export type ReceivingSystem = 'windows' | 'macos' | 'linux' | 'android' | 'ios' | 'unknown';

type KnownSystem = Exclude<ReceivingSystem, 'unknown'>;

/**
 * Extensions of files that the system runs, installs or launches on a double-click (or a tap):
 * what an accept prompt flags, so that `invoice.pdf.exe` does not pass for a document while a
 * folder of source code (`.js`, `.py`, `.sh`) reads as what it is where it opens in an editor.
 * Lowercase, without the dot; docs/protocol.md, "File list", lists them.
 *
 * A script for a Unix shell is not among them: a received file has no executable bit, so a
 * double-click opens it in an editor on macOS and Linux alike.
 */
export const RUNS_ON_OPEN: Readonly<Record<KnownSystem, ReadonlySet<string>>> = {
  windows: new Set([
    'exe',
    'msi',
    'msp',
    'msix',
    'msixbundle',
    'appx',
    'appxbundle',
    'appref-ms',
    'bat',
    'cmd',
    'com',
    'scr',
    'pif',
    'cpl',
    'msc',
    'hta',
    // Windows Script Host runs these: a `.js` here is a program, not a web page's source.
    'vbs',
    'vbe',
    'js',
    'jse',
    'wsf',
    'wsh',
    'reg',
    'lnk',
    'url',
    'jar',
  ]),
  macos: new Set([
    'app',
    'command',
    'tool',
    'terminal',
    'dmg',
    'pkg',
    'mpkg',
    'workflow',
    'mobileconfig',
    'jar',
  ]),
  linux: new Set(['deb', 'rpm', 'flatpak', 'flatpakref', 'snap', 'appimage', 'desktop', 'jar']),
  android: new Set(['apk', 'apks', 'xapk']),
  ios: new Set(['mobileconfig']),
};

const EVERY_LIST: ReadonlySet<string> = new Set(
  Object.values(RUNS_ON_OPEN).flatMap((extensions) => [...extensions]),
);

/** The extensions flagged on `system`. */
export function executableExtensions(system: ReceivingSystem): ReadonlySet<string> {
  return system === 'unknown' ? EVERY_LIST : RUNS_ON_OPEN[system];
}

/** Extensions of folders that are programs themselves: a macOS application bundle. */
const BUNDLE_EXTENSIONS: ReadonlySet<string> = new Set(['app']);

export interface NameFlags {
  /** A component starts with a dot: the file, or a folder it sits in, is hidden on most systems. */
  hidden: boolean;
  /**
   * `system` runs or installs the file when it is opened, or it sits inside an application
   * bundle there.
   */
  executable: boolean;
}

/** What a person on `system` should notice about a `/`-separated relative path before accepting it. */
export function nameFlags(path: string, system: ReceivingSystem): NameFlags {
  const components = path.split('/').filter((component) => component !== '');
  const name = components.at(-1) ?? '';
  const folders = components.slice(0, -1);
  const bundles = system === 'macos' || system === 'unknown';
  return {
    hidden: components.some((component) => component.startsWith('.')),
    executable:
      executableExtensions(system).has(extensionOf(name)) ||
      (bundles && folders.some((folder) => BUNDLE_EXTENSIONS.has(extensionOf(folder)))),
  };
}

/** The text after the last dot, lowercased; none for a dotfile such as `.bashrc`. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0
    ? name
        .slice(dot + 1)
        .trim()
        .toLowerCase()
    : '';
}
