import { posix, win32 } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILE_NAME,
  NAME_COMPONENT_MAX_BYTES,
  NAME_PATH_MAX_BYTES,
  sanitizeRelativePath,
} from './sanitize-path';

const bytes = (text: string): number => new TextEncoder().encode(text).length;

// Resolves the sanitized path the way each platform would, Win32's trimming of trailing dots
// and spaces included, and reports whether it landed outside the target folder.
function escapesTarget(relative: string): boolean {
  const posixTarget = '/srv/target';
  const posixResolved = posix.resolve(posixTarget, relative);
  const windowsTarget = 'D:\\target';
  const windowsRelative = relative
    .split(/[/\\]/)
    .map((component) => component.replace(/[. ]+$/, ''))
    .join('\\');
  const windowsResolved = win32.resolve(windowsTarget, windowsRelative);
  return (
    posix.isAbsolute(relative) ||
    win32.isAbsolute(relative) ||
    /^[a-z]:/i.test(relative) ||
    !posixResolved.startsWith(`${posixTarget}/`) ||
    !windowsResolved.toLowerCase().startsWith(`${windowsTarget.toLowerCase()}\\`)
  );
}

const hostileFragment = fc.constantFrom(
  '..',
  '.',
  '/',
  '\\',
  '\\\\',
  '//?/',
  '\\\\?\\',
  'C:',
  'c:\\',
  ':',
  ' ',
  '. ',
  '.. ',
  'CON',
  'nul',
  'Com1',
  'LPT¹',
  '.txt',
  '.tar.gz',
  '.part',
  '.PART',
  '.ferry',
  '.ferry-received',
  '\u0000',
  '\n',
  '\u001b',
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\t',
  ' '.repeat(60),
  'e\u0301',
  'Å',
  '😀',
  '<>|?*"',
  'a',
  'folder',
  'x'.repeat(150),
  '漢'.repeat(80),
  '😀'.repeat(60),
);
const hostileName = fc.oneof(
  fc.array(hostileFragment, { maxLength: 40 }).map((parts) => parts.join('')),
  fc
    .array(fc.oneof(hostileFragment, fc.string({ unit: 'binary', maxLength: 8 })), {
      maxLength: 30,
    })
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)) }),
);

describe('a hostile file name is neutralized', () => {
  it.each([
    ['a parent traversal stays inside the target folder', '../../etc/passwd', '__/__/etc/passwd'],
    [
      'a traversal hidden mid-path stays inside the target folder',
      'photos/../../../.ssh/authorized_keys',
      'photos/__/__/__/.ssh/authorized_keys',
    ],
    ['an absolute path becomes relative', '/etc/cron.d/job', 'etc/cron.d/job'],
    [
      'a backslash traversal stays inside the target folder',
      '..\\..\\Windows\\System32\\evil.dll',
      '__/__/Windows/System32/evil.dll',
    ],
    ['a drive letter cannot pick another disk', 'C:\\Windows\\win.ini', 'C_/Windows/win.ini'],
    ['a drive-relative name cannot pick another disk', 'C:evil.txt', 'C_evil.txt'],
    [
      'a UNC path cannot reach a network share',
      '\\\\attacker\\share\\x.txt',
      'attacker/share/x.txt',
    ],
    ['a device-namespace prefix is defused', '\\\\?\\C:\\x.txt', '_/C_/x.txt'],
    ['an alternate data stream cannot be addressed', 'report.txt:payload', 'report.txt_payload'],
    ['a traversal Windows would make by trimming a space stays inside', '.. /secret', '__/secret'],
    ['a traversal of three dots stays inside', '.../secret', '___/secret'],
    ['a trailing dot cannot vanish on Windows', 'notes.', 'notes_'],
    ['a trailing space is trimmed, so Windows cannot drop it', 'folder /notes ', 'folder/notes'],
    ['a reserved device name cannot open a device', 'CON', '_CON'],
    ['a device name with an extension cannot open a device', 'nul.txt', '_nul.txt'],
    ['a device name in mixed case cannot open a device', 'LpT9.Log', '_LpT9.Log'],
    ['a device name with a trailing space cannot open a device', 'aux .txt', '_aux .txt'],
    ['a device name as a folder cannot open a device', 'prn/readme.md', '_prn/readme.md'],
    ['a superscript port number cannot open a device', 'COM¹.txt', '_COM¹.txt'],
    ['a console device cannot be opened', 'CONIN$', '_CONIN$'],
    ['a name that only starts like a device is left alone', 'console.log', 'console.log'],
    ['a NUL byte cannot cut the name short in native code', 'safe.txt\u0000.exe', 'safe.txt_.exe'],
    ['escape sequences cannot reach a terminal', 'a\u001b[31mred\n.txt', 'a_[31mred .txt'],
    ['a right-to-left override cannot disguise an extension', 'evil\u202Etxt.exe', 'eviltxt.exe'],
    ['a bidi isolate cannot disguise an extension', 'photo\u2067gpj.exe', 'photogpj.exe'],
    [
      'spaces cannot push the real extension out of sight',
      `invoice.pdf${' '.repeat(60)}.exe`,
      'invoice.pdf .exe',
    ],
    [
      'no-break and ideographic spaces cannot push it out of sight either',
      `invoice.pdf${'\u00a0\u3000\u2003\t'.repeat(15)}.exe`,
      'invoice.pdf .exe',
    ],
    ['a zero-width space cannot hide in a name', 'a\u200Bb', 'ab'],
    ['a zero-width joiner cannot split an extension', 'photo.jp\u200Dg', 'photo.jpg'],
    ['a byte-order mark cannot hide in a name', '\uFEFFreadme.txt', 'readme.txt'],
    ['leading and trailing spaces are trimmed', '  notes.txt\u00a0', 'notes.txt'],
    [
      'a name padded at a folder boundary is trimmed too',
      'docs  / \u3000report.pdf',
      'docs/report.pdf',
    ],
    ['invisible characters cannot make a traversal', '.\u200B./secret', '__/secret'],
    [
      'an accent kept apart by a joiner composes once the joiner is gone',
      'Cafe\u200D\u0301',
      'Café',
    ],
    [
      'characters Windows forbids are replaced one for one',
      'a<b>c:d"e|f?g*h.txt',
      'a_b_c_d_e_f_g_h.txt',
    ],
    ['a lone surrogate cannot reach the file system', 'a\ud800b.txt', 'a_b.txt'],
    [
      'dot components and doubled slashes name nothing',
      './photos//2024/./a.jpg',
      'photos/2024/a.jpg',
    ],
    ['decomposed accents are stored composed', 'Cafe\u0301/Ame\u0301lie.txt', 'Café/Amélie.txt'],
    ['an empty name gets the default name', '', DEFAULT_FILE_NAME],
    ['a name of only slashes gets the default name', '//\\', DEFAULT_FILE_NAME],
    ['a name of only dot components gets the default name', './././', DEFAULT_FILE_NAME],
    [
      'a name of only invisible characters gets the default name',
      '\u200B\u200D\u202E',
      DEFAULT_FILE_NAME,
    ],
    ['a name of only spaces gets the default name', ' \u00a0\u3000 ', DEFAULT_FILE_NAME],
    [
      'folders of only invisible characters and spaces vanish',
      '\u2066\u2069/ /\uFEFF/x.txt',
      'x.txt',
    ],
  ])('%s', (_attack, name, expected) => {
    expect(sanitizeRelativePath(name)).toBe(expected);
    expect(escapesTarget(sanitizeRelativePath(name))).toBe(false);
  });
});

describe("a name of Ferry's own bookkeeping cannot be sent", () => {
  it.each([
    ['a staging file', 'notes.part', 'notes.part_'],
    [
      'a sidecar, which would steer the sweep of old kept parts',
      'notes.part.ferry',
      'notes.part.ferry_',
    ],
    ['the index of received files', 'album/.ferry-received', 'album/.ferry-received_'],
    ['in any case, as macOS and Windows ignore it', 'NOTES.Part.FERRY', 'NOTES.Part.FERRY_'],
    ['as a folder too', 'x.part/y.txt', 'x.part_/y.txt'],
    ['with a dot Windows would trim', 'notes.part.', 'notes.part_'],
    [
      'when cutting a long name to its limit leaves the suffix at the end',
      `${'a'.repeat(195)}.part${'b'.repeat(20)}`,
      `${'a'.repeat(194)}.part_`,
    ],
  ])('%s', (_rule, name, safe) => {
    expect(sanitizeRelativePath(name)).toBe(safe);
  });

  it('a name that only looks alike is kept', () => {
    expect(sanitizeRelativePath('report.partial')).toBe('report.partial');
    expect(sanitizeRelativePath('x.ferry')).toBe('x.ferry');
  });
});

describe('an honest name survives sanitizing', () => {
  it.each([
    ['a folder path is kept', 'Holiday 2024/Day 1/IMG_0001.jpg'],
    ['a hidden file is kept', '.config/app/settings.json'],
    ['a name that starts like a device is kept', 'CONTRIBUTING.md'],
    ['non-Latin scripts and emoji are kept', 'Фото/写真 😀.png'],
    ['inner dots and spaces are kept', 'v1.2 final . draft.tar.gz'],
  ])('%s', (_rule, name) => {
    expect(sanitizeRelativePath(name)).toBe(name);
  });
});

describe('long names are cut to the byte limits', () => {
  it('an overlong name is cut below the limit and keeps its extension', () => {
    const sanitized = sanitizeRelativePath(`${'a'.repeat(300)}.pdf`);
    expect(sanitized).toBe(`${'a'.repeat(NAME_COMPONENT_MAX_BYTES - 4)}.pdf`);
  });

  it('an overlong archive keeps both of its extensions', () => {
    const sanitized = sanitizeRelativePath(`${'b'.repeat(300)}.tar.gz`);
    expect(sanitized).toBe(`${'b'.repeat(NAME_COMPONENT_MAX_BYTES - 7)}.tar.gz`);
  });

  it('a cut never splits a multi-byte character', () => {
    expect(sanitizeRelativePath(`${'€'.repeat(100)}.txt`)).toBe(`${'€'.repeat(65)}.txt`);
    expect(sanitizeRelativePath('😀'.repeat(60))).toBe('😀'.repeat(50));
  });

  it('a cut that lands after a space cannot leave a trailing space', () => {
    const sanitized = sanitizeRelativePath(`${'a'.repeat(199)} bbbbbb`);
    expect(sanitized).toBe(`${'a'.repeat(199)}_`);
  });

  it('a deep tree keeps its top folders and the file name', () => {
    const folder = 'f'.repeat(100);
    const sanitized = sanitizeRelativePath(`${`${folder}/`.repeat(20)}file.txt`);
    expect(sanitized).toBe(`${`${folder}/`.repeat(9)}file.txt`);
  });
});

describe('sanitizing holds for any name', () => {
  it('a sanitized name never escapes the target folder', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const sanitized = sanitizeRelativePath(name);
        expect(escapesTarget(sanitized)).toBe(false);
        for (const component of sanitized.split('/')) {
          expect(['', '.', '..']).not.toContain(component);
          expect(component).not.toMatch(/[\\<>:"|?*\p{Cc}\p{Cf}]|[. ]$/u);
          // The only whitespace left is single spaces between other characters.
          expect(component).not.toMatch(/[^\S ]|^ | {2}/u);
          expect(component).not.toMatch(/^(con|prn|aux|nul|com.|lpt.)(\.|$)/i);
          expect(component).not.toMatch(/\.part(\.ferry)?$|^\.ferry-received$/i);
          expect(bytes(component)).toBeLessThanOrEqual(NAME_COMPONENT_MAX_BYTES);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a sanitized name is NFC, well-formed and within the total limit', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const sanitized = sanitizeRelativePath(name);
        expect(sanitized).toBe(sanitized.normalize('NFC'));
        expect(sanitized).not.toMatch(/[\ud800-\udfff]/u);
        expect(bytes(sanitized)).toBeLessThanOrEqual(NAME_PATH_MAX_BYTES);
      }),
      { numRuns: 2000 },
    );
  });

  it('sanitizing twice changes nothing', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const sanitized = sanitizeRelativePath(name);
        expect(sanitizeRelativePath(sanitized)).toBe(sanitized);
      }),
      { numRuns: 2000 },
    );
  });
});
