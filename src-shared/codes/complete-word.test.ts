import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPLETION_LIMIT, completeWord } from './complete-word';
import { CODE_WORDS } from './word-list';

describe('completeWord', () => {
  it('completes the last word of a partly typed code', () => {
    expect(completeWord('zone zoom ac')).toEqual(['acid', 'acorn', 'acre', 'acts']);
  });

  it('offers a finished word first, since it is its own prefix', () => {
    expect(completeWord('acid-acorn-acre')[0]).toBe('acre');
  });

  it('completes what was typed with capitals', () => {
    expect(completeWord('ZEB')).toEqual(['zebra']);
  });

  it('stops at the limit', () => {
    expect(completeWord('s')).toHaveLength(COMPLETION_LIMIT);
    expect(completeWord('s', 2)).toEqual(CODE_WORDS.filter((w) => w.startsWith('s')).slice(0, 2));
    expect(completeWord('s', 0)).toEqual([]);
  });

  it.each([
    ['an empty field', ''],
    ['a field ending in a separator', 'acid '],
    ['a prefix no word has', 'qx'],
    ['a word dropped from the list', 'whole'],
  ])('suggests nothing for %s', (_rule, typed) => {
    expect(completeWord(typed)).toEqual([]);
  });

  it('agrees with a scan of the whole list for any prefix', () => {
    const prefix = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(prefix, fc.integer({ min: 1, max: 20 }), (typed, limit) => {
        const scanned = CODE_WORDS.filter((word) => word.startsWith(typed)).slice(0, limit);
        expect(completeWord(typed, limit)).toEqual(scanned);
      }),
    );
  });
});
