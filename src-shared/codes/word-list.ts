import words from '../../resources/wordlist/words.json' with { type: 'json' };

/**
 * The words a short code is drawn from, sorted, lowercase a-z: the EFF short word list #1 minus
 * the words that read badly when a code is shared aloud or in chat (see
 * `resources/wordlist/DROPPED.md`). Callers must not rely on its length; the spec gives
 * several.
 */
export const CODE_WORDS: readonly string[] = Object.freeze([...words]);

export const CODE_WORD_SET: ReadonlySet<string> = new Set(CODE_WORDS);
