import { describe, expect, it } from 'vitest';
import { CODE_WORDS_AFTER_COLLISIONS, CODE_WORDS_PER_CODE, generateCode } from './generate-code';
import { CODE_WORDS } from './word-list';

function sequence(...indexes: number[]): (exclusiveMax: number) => number {
  return () => {
    const next = indexes.shift();
    if (next === undefined) throw new Error('the source was asked for more words than expected');
    return next;
  };
}

describe('generateCode', () => {
  it('draws each word from the injected source', () => {
    const last = CODE_WORDS.length - 1;
    expect(generateCode(sequence(0, last, 1))).toBe(
      [CODE_WORDS[0], CODE_WORDS[last], CODE_WORDS[1]].join('-'),
    );
  });

  it('draws three words by default and four after collisions', () => {
    expect(CODE_WORDS_PER_CODE).toBe(3);
    expect(CODE_WORDS_AFTER_COLLISIONS).toBe(4);
    expect(generateCode(sequence(5, 6, 7)).split('-')).toHaveLength(3);
    expect(generateCode(sequence(5, 6, 7, 8), 4).split('-')).toHaveLength(4);
  });

  it('asks the source for an index over the whole list, so every word can be drawn', () => {
    const asked: number[] = [];
    generateCode((max) => {
      asked.push(max);
      return 0;
    });
    expect(asked).toEqual([CODE_WORDS.length, CODE_WORDS.length, CODE_WORDS.length]);
  });

  it.each([
    ['a negative index', -1],
    ['an index past the end', CODE_WORDS.length],
    ['a fractional index', 1.5],
    ['NaN', Number.NaN],
  ])('a broken random source returning %s is refused', (_attack, index) => {
    expect(() => generateCode(() => index)).toThrow(RangeError);
  });
});
