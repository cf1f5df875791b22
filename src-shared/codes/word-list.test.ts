import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODE_WORD_SET, CODE_WORDS } from './word-list';

// The table in DROPPED.md is the record of removed words; reading it keeps one list, not two.
const droppedTable = readFileSync(
  new URL('../../resources/wordlist/DROPPED.md', import.meta.url),
  'utf8',
).split(/^\|\s*-+\s*\|.*$/m)[1];
const droppedWords = (droppedTable ?? '')
  .split('\n')
  .map((row) => /^\|\s*([a-z]+)\s*\|/.exec(row)?.[1])
  .filter((word): word is string => word !== undefined);

describe('the code word list', () => {
  it('every word is lowercase a-z only, so a code needs no escaping and no shift key', () => {
    for (const word of CODE_WORDS) expect(word).toMatch(/^[a-z]+$/);
  });

  it('no word appears twice, which would bias the draw', () => {
    expect(CODE_WORD_SET.size).toBe(CODE_WORDS.length);
  });

  it('the words are sorted, so completion can search them by prefix', () => {
    expect([...CODE_WORDS].sort()).toEqual(CODE_WORDS);
  });

  it('a three-word code carries at least 30 bits', () => {
    expect(CODE_WORDS.length ** 3).toBeGreaterThanOrEqual(2 ** 30);
  });

  it('words dropped for reading badly aloud or in chat stay out', () => {
    expect(droppedWords.length).toBeGreaterThan(0);
    for (const word of droppedWords) expect(CODE_WORD_SET.has(word), word).toBe(false);
  });

  it('the list cannot be changed at run time', () => {
    expect(Object.isFrozen(CODE_WORDS)).toBe(true);
  });
});
