import { CODE_SEPARATORS, normalizeCode } from './normalize-code';
import { CODE_WORDS } from './word-list';

export const COMPLETION_LIMIT = 5;

/**
 * Suggestions for the word being typed in the receive field. Takes the field's text as typed
 * (or a bare prefix) and completes its last word, in alphabetical order; a finished word comes
 * first because it is its own prefix. Nothing is suggested before a letter is typed or right
 * after a separator.
 */
export function completeWord(prefix: string, limit: number = COMPLETION_LIMIT): string[] {
  const lastWord = normalizeCode(prefix.split(CODE_SEPARATORS).pop() ?? '');
  if (lastWord === '' || limit < 1) return [];
  const completions: string[] = [];
  for (let i = firstAtOrAfter(lastWord); i < CODE_WORDS.length; i += 1) {
    const word = CODE_WORDS[i];
    if (!word.startsWith(lastWord) || completions.length >= limit) break;
    completions.push(word);
  }
  return completions;
}

// The list is sorted, so the words sharing a prefix sit together after this index.
function firstAtOrAfter(target: string): number {
  let low = 0;
  let high = CODE_WORDS.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (CODE_WORDS[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
