import { CODE_WORD_SET } from './word-list';

const CODE_SHAPE = /^[a-z]+(?:-[a-z]+){2,3}$/;

/**
 * Three or four lowercase words joined by hyphens, whatever the words are: the server uses the
 * shape to turn away garbage before a lookup, and it must keep accepting codes issued under an
 * older word list. Expects normalized input (see `normalizeCode`).
 */
export function isCodeShape(code: string): boolean {
  return CODE_SHAPE.test(code);
}

/** The shape, and every word from the current list: what a client checks before resolving. */
export function isKnownCode(code: string): boolean {
  return isCodeShape(code) && code.split('-').every((word) => CODE_WORD_SET.has(word));
}
