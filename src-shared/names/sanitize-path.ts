import { splitExtension } from './split-extension';

/**
 * Below the 255 bytes most file systems allow per name, leaving room for the receiver's
 * `.part` staging suffix and a ` (N)` collision suffix.
 */
export const NAME_COMPONENT_MAX_BYTES = 200;

/** Bounds a whole sent path, so a deep tree cannot grow without limit under the target folder. */
export const NAME_PATH_MAX_BYTES = 1000;

export const DEFAULT_FILE_NAME = 'unnamed';

// `\` splits too: a Windows receiver's file system would split on it anyway, so doing it here
// gives one name the same tree on every receiver and lets the component rules see every `..`.
const SEPARATOR = /[/\\]/;

// Control characters, what Windows forbids in a name, bidirectional controls that could make
// `photo\u202Egpj.exe` look like a picture in the accept prompt, and lone surrogates, which no
// file system can store.
const UNSAFE_CHARACTER =
  /[\p{Cc}<>:"|?*\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/gu;

// Windows drops trailing dots and spaces itself, turning `.. ` into `..` and `a.` into `a`.
const TRAILING_DOTS_AND_SPACES = /[. ]+$/;

// These stay devices on Windows whatever the case, extension or trailing spaces (`con.txt`).
const WINDOWS_DEVICE_NAME =
  /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?=[. ]|$)/i;

const REPLACEMENT = '_';

/**
 * Turns the name a sender announced into a relative path that is safe to create under the
 * receiver's target folder on any operating system: `/`-separated, NFC, no component that is
 * empty, `.`, `..`, a device or a drive, and within the byte limits. Unsafe characters are
 * replaced one for one rather than removed, so distinct hostile names do not quietly merge into
 * an innocent-looking one. Never empty: a name with nothing usable left becomes
 * `DEFAULT_FILE_NAME`. Applying it twice changes nothing.
 */
export function sanitizeRelativePath(name: string): string {
  const components = name
    .normalize('NFC')
    .split(SEPARATOR)
    // Empty components come from `//` and leading or trailing slashes; `.` names nothing.
    .filter((component) => component !== '' && component !== '.')
    .map(sanitizeComponent);
  const fileName = components.pop();
  if (fileName === undefined) return DEFAULT_FILE_NAME;

  // Keeping the top of the tree keeps a sent folder's files together under its own name.
  const folders: string[] = [];
  let bytes = utf8Length(fileName);
  for (const folder of components) {
    bytes += utf8Length(folder) + 1;
    if (bytes > NAME_PATH_MAX_BYTES) break;
    folders.push(folder);
  }
  return [...folders, fileName].join('/');
}

function sanitizeComponent(component: string): string {
  let safe = component.replace(UNSAFE_CHARACTER, REPLACEMENT);
  if (WINDOWS_DEVICE_NAME.test(safe)) safe = REPLACEMENT + safe;
  safe = cutToBytes(safe, NAME_COMPONENT_MAX_BYTES);
  // A component of only dots, `..` included, ends up here and becomes underscores.
  return safe.replace(TRAILING_DOTS_AND_SPACES, (run) => REPLACEMENT.repeat(run.length));
}

// Cuts the stem rather than the extension, so the file still opens with the right program.
function cutToBytes(name: string, maxBytes: number): string {
  if (utf8Length(name) <= maxBytes) return name;
  const { stem, extension } = splitExtension(name);
  return stemPrefix(stem, maxBytes - utf8Length(extension)) + extension;
}

// Walks whole code points, so a cut never leaves half a character behind.
function stemPrefix(stem: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of stem) {
    bytes += utf8Length(character);
    if (bytes > maxBytes) break;
    end += character.length;
  }
  return stem.slice(0, end);
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
  return bytes;
}
