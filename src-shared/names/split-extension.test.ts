import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitExtension } from './split-extension';

describe('splitExtension', () => {
  it.each([
    ['a plain extension is split off', 'report.pdf', 'report', '.pdf'],
    ['only the last extension is split off', 'v1.2.notes.txt', 'v1.2.notes', '.txt'],
    ['a compressed archive keeps both extensions', 'archive.tar.gz', 'archive', '.tar.gz'],
    ['a compressed archive in capitals keeps both', 'BACKUP.TAR.XZ', 'BACKUP', '.TAR.XZ'],
    ['a compressed single file keeps both', 'drawing.svg.gz', 'drawing', '.svg.gz'],
    ['a dotfile has no extension', '.bashrc', '.bashrc', ''],
    ['a dotfile can still have an extension', '.env.local', '.env', '.local'],
    ['a name without a dot has no extension', 'Makefile', 'Makefile', ''],
    ['a trailing dot is no extension', 'notes.', 'notes.', ''],
    ['a dot followed by words is part of the name', 'Dr. Smith notes', 'Dr. Smith notes', ''],
    ['an overlong tail is part of the name', 'a.abcdefghijklmnopq', 'a.abcdefghijklmnopq', ''],
    ['a dot in a folder is no extension', 'v1.2/readme', 'v1.2/readme', ''],
    ['a dotfile in a folder has no extension', 'home/.profile', 'home/.profile', ''],
    ['a path keeps its folders in the stem', 'docs/report.pdf', 'docs/report', '.pdf'],
  ])('%s', (_rule, name, stem, extension) => {
    expect(splitExtension(name)).toEqual({ stem, extension });
  });

  it('stem and extension always put the name back together', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (name) => {
        const { stem, extension } = splitExtension(name);
        expect(stem + extension).toBe(name);
      }),
    );
  });
});
