import { describe, expect, it } from 'vitest';
import { EXECUTABLE_EXTENSIONS, nameFlags } from './risky-name';

describe('what an accept prompt flags in a name', () => {
  it.each([
    ['photos/beach.jpg', { hidden: false, executable: false }],
    ['.bashrc', { hidden: true, executable: false }],
    ['kit/.config/settings.json', { hidden: true, executable: false }],
    ['invoice.pdf.exe', { hidden: false, executable: true }],
    ['Setup.MSI', { hidden: false, executable: true }],
    ['tools/.local/bin/run.sh', { hidden: true, executable: true }],
    ['Ferry.app/Contents/MacOS/Ferry', { hidden: false, executable: true }],
    ['archive.tar.gz', { hidden: false, executable: false }],
    ['README', { hidden: false, executable: false }],
  ])('%s', (path, flags) => {
    expect(nameFlags(path)).toEqual(flags);
  });

  it('knows the usual ways a file runs or installs something', () => {
    for (const extension of ['exe', 'msi', 'bat', 'cmd', 'com', 'scr', 'ps1', 'vbs', 'js', 'jar']) {
      expect(EXECUTABLE_EXTENSIONS.has(extension), extension).toBe(true);
    }
    for (const extension of [
      'app',
      'command',
      'sh',
      'dmg',
      'pkg',
      'deb',
      'rpm',
      'appimage',
      'lnk',
    ]) {
      expect(EXECUTABLE_EXTENSIONS.has(extension), extension).toBe(true);
    }
  });
});
