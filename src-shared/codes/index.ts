export { completeWord, COMPLETION_LIMIT } from './complete-word';
export { CODE_WORDS_AFTER_COLLISIONS, CODE_WORDS_PER_CODE, generateCode } from './generate-code';
export { CODE_SEPARATORS, normalizeCode } from './normalize-code';
export { isCodeShape, isKnownCode } from './validate-code';
export { CODE_WORD_SET, CODE_WORDS } from './word-list';
