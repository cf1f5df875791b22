import { PART_SUFFIX, SIDECAR_SUFFIX } from '../verify/part-sidecar';
import { RECEIPTS_NAME } from '../verify/receipts';
import { splitExtension } from './split-extension';

/**
 * Below the 255 bytes most file systems allow per name, leaving room for the receiver's
 * `.part.ferry` staging suffixes and a collision suffix (` (100)`, ` (k3f9q2)`).
 */
export const NAME_COMPONENT_MAX_BYTES = 200;

/** Bounds a whole sent path, so a deep tree cannot grow without limit under the target folder. */
export const NAME_PATH_MAX_BYTES = 1000;

export const DEFAULT_FILE_NAME = 'unnamed';

// `\` splits too: a Windows receiver's file system would split on it anyway, so doing it here
// gives one name the same tree on every receiver and lets the component rules see every `..`.
const SEPARATOR = /[/\\]/;

// Invisible format characters: zero-width spaces and joiners, the BOM, and the bidirectional
// controls that could make `photo\u202Egpj.exe` look like a picture in the accept prompt.
// Removed rather than replaced, so the name shows as it will really read.
const FORMAT_CHARACTER = /\p{Cf}/gu;

// Any run of whitespace, line breaks, tabs, no-break and ideographic spaces included: 60 spaces
// after `invoice.pdf` would push `.exe` out of sight.
const WHITESPACE_RUN = /\s+/gu;

// Control characters, what Windows forbids in a name, and lone surrogates, which no file system
// can store.
const UNSAFE_CHARACTER = /[\p{Cc}<>:"|?*\uD800-\uDFFF]/gu;

// Windows drops trailing dots and spaces itself, turning `.. ` into `..` and `a.` into `a`.
const TRAILING_DOTS_AND_SPACES = /[. ]+$/;

// These stay devices on Windows whatever the case, extension or trailing spaces (`con.txt`).
const WINDOWS_DEVICE_NAME =
  /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?=[. ]|$)/i;

const REPLACEMENT = '_';

/**
 * Names of Ferry's own bookkeeping beside received files (docs/protocol.md, "Resume"), lowercase
 * since macOS and Windows ignore case. A sent name must never pass for one: a planted sidecar
 * would steer the sweep of old kept parts, a planted index vouch for a file Ferry never wrote.
 */
const BOOKKEEPING_SUFFIXES = [PART_SUFFIX, PART_SUFFIX + SIDECAR_SUFFIX];
const BOOKKEEPING_NAMES: ReadonlySet<string> = new Set([RECEIPTS_NAME]);

/**
 * Turns the name a sender announced into a relative path that is safe to create under the
 * receiver's target folder on any operating system: `/`-separated, NFC, no component that is
 * empty, `.`, `..`, a device or a drive, and within the byte limits. Invisible format characters
 * are removed and whitespace runs become one space, trimmed at each component's ends, so the name
 * looks as it is; other unsafe characters are replaced one for one rather than removed, so
 * distinct hostile names do not quietly merge into an innocent-looking one. A name of Ferry's own
 * staging and bookkeeping (`.part`, `.part.ferry`, `.ferry-received`) gets a `_` at its end.
 * Never empty: a name with nothing usable left becomes `DEFAULT_FILE_NAME`. Applying it twice
 * changes nothing.
 */
export function sanitizeRelativePath(name: string): string {
  const components = name
    // Removed before composing, so that a letter and the accent one kept apart compose too.
    .replace(FORMAT_CHARACTER, '')
    .normalize('NFC')
    .split(SEPARATOR)
    .map((component) => component.replace(WHITESPACE_RUN, ' ').trim())
    // Empty components come from `//`, leading or trailing slashes and blank or invisible
    // names; `.` names nothing.
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
  safe = safe.replace(TRAILING_DOTS_AND_SPACES, (run) => REPLACEMENT.repeat(run.length));
  // Last, on the name as it will be: a cut can leave a bookkeeping ending that was not one.
  return isBookkeeping(safe)
    ? cutToBytes(safe, NAME_COMPONENT_MAX_BYTES - REPLACEMENT.length) + REPLACEMENT
    : safe;
}

// `notes.part` becomes `notes.part_`: renamed rather than refused, as every other unsafe name is,
// so the file still arrives and the accept prompt shows the name it lands under.
function isBookkeeping(component: string): boolean {
  const lower = component.toLowerCase();
  return BOOKKEEPING_NAMES.has(lower) || BOOKKEEPING_SUFFIXES.some((end) => lower.endsWith(end));
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
