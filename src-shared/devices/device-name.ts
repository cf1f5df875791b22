import { DEVICE_NAME_MAX_CHARS } from '../protocol/limits';

// The same rules a file name's component follows for what a person sees (names/sanitize-path.ts):
// no invisible format characters or lone surrogates; a control character (a line break, a bell)
// separates words like a space; one space for any run of whitespace.
const INVISIBLE = /[\p{Cf}\uD800-\uDFFF]/gu;
const CONTROL = /\p{Cc}/gu;
const WHITESPACE_RUN = /\s+/gu;

/**
 * A device name as every surface shows it: invisible characters removed, control characters and
 * whitespace runs made one space, trimmed, cut to DEVICE_NAME_MAX_CHARS characters. Undefined when nothing
 * is left. Applying it twice changes nothing.
 */
export function cleanDeviceName(raw: string): string | undefined {
  const cleaned = raw
    .replace(INVISIBLE, '')
    .replace(CONTROL, ' ')
    .normalize('NFC')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
  const cut = Array.from(cleaned).slice(0, DEVICE_NAME_MAX_CHARS).join('').trimEnd();
  return cut === '' ? undefined : cut;
}
