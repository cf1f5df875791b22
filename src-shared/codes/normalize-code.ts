/**
 * A run of what may stand between two words of a code. Dash punctuation is included because
 * phones and chat apps turn a typed hyphen into an en or em dash; all whitespace is included
 * because pasted codes bring newlines and no-break spaces.
 */
export const CODE_SEPARATORS = /[\s\p{Pd}_.,]+/u;

/**
 * Turns what a person typed or pasted into the canonical form the server stores: lowercase,
 * NFC, words joined by single hyphens. `" Acid  Acorn_acre. "` becomes `"acid-acorn-acre"`.
 * The server matches codes exactly, so every client must call this before resolving a code.
 */
export function normalizeCode(input: string): string {
  return input
    .toLowerCase()
    .normalize('NFC')
    .split(CODE_SEPARATORS)
    .filter((word) => word !== '')
    .join('-');
}
