/**
 * Extensions of files that run, install or launch something when opened: what an accept prompt
 * flags so that `invoice.pdf.exe` does not pass for a document. Lowercase, without the dot.
 */
export const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  // Windows
  'exe',
  'msi',
  'msp',
  'bat',
  'cmd',
  'com',
  'scr',
  'pif',
  'cpl',
  'hta',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'reg',
  'lnk',
  'url',
  // Java
  'jar',
  // macOS
  'app',
  'command',
  'dmg',
  'pkg',
  'mpkg',
  'scpt',
  'workflow',
  // Unix shells and Linux packages and launchers
  'sh',
  'bash',
  'zsh',
  'csh',
  'ksh',
  'run',
  'deb',
  'rpm',
  'appimage',
  'flatpak',
  'snap',
  'desktop',
  // Android
  'apk',
]);

/** Extensions of folders that are programs themselves: a macOS application bundle. */
const BUNDLE_EXTENSIONS: ReadonlySet<string> = new Set(['app']);

export interface NameFlags {
  /** A component starts with a dot: the file, or a folder it sits in, is hidden on most systems. */
  hidden: boolean;
  /** The file runs or installs something when opened, or sits inside an application bundle. */
  executable: boolean;
}

/** What a person should notice about a `/`-separated relative path before accepting it. */
export function nameFlags(path: string): NameFlags {
  const components = path.split('/').filter((component) => component !== '');
  const name = components.at(-1) ?? '';
  const folders = components.slice(0, -1);
  return {
    hidden: components.some((component) => component.startsWith('.')),
    executable:
      EXECUTABLE_EXTENSIONS.has(extensionOf(name)) ||
      folders.some((folder) => BUNDLE_EXTENSIONS.has(extensionOf(folder))),
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
