import { CODE_WORDS } from './word-list';

export const CODE_WORDS_PER_CODE = 3;

/** After ten three-word draws collide with live codes, the server issues a four-word code. */
export const CODE_WORDS_AFTER_COLLISIONS = 4;

/**
 * Draws a code of independent words. `randomIndex(n)` must return a uniformly random integer in
 * [0, n) from a cryptographically secure source (the server passes one built on
 * `crypto.randomInt`); injecting it keeps this module runtime-free and testable. Words may
 * repeat, because excluding repeats would only lower the entropy.
 */
export function generateCode(
  randomIndex: (exclusiveMax: number) => number,
  wordCount: 3 | 4 = CODE_WORDS_PER_CODE,
): string {
  const words: string[] = [];
  for (let i = 0; i < wordCount; i += 1) {
    const index = randomIndex(CODE_WORDS.length);
    // A broken source would silently produce "undefined" words or a biased code.
    if (!Number.isInteger(index) || index < 0 || index >= CODE_WORDS.length) {
      throw new RangeError(`randomIndex returned ${index}, outside [0, ${CODE_WORDS.length})`);
    }
    words.push(CODE_WORDS[index]);
  }
  return words.join('-');
}
