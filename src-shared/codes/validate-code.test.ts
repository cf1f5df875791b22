import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCode } from './generate-code';
import { isCodeShape, isKnownCode } from './validate-code';

describe('isCodeShape', () => {
  it.each([
    ['three words', 'acid-acorn-acre'],
    ['four words, issued after collisions', 'acid-acorn-acre-zone'],
    ['words from an older list', 'foo-bar-baz'],
  ])('accepts %s', (_rule, code) => {
    expect(isCodeShape(code)).toBe(true);
  });

  it.each([
    ['two words, too few to be a code', 'acid-acorn'],
    ['five words, more than the server issues', 'acid-acorn-acre-zone-zoom'],
    ['capitals, which the server would not match', 'Acid-acorn-acre'],
    ['spaces, which normalizing should have turned into hyphens', 'acid acorn acre'],
    ['an empty word', 'acid--acre'],
    ['a trailing hyphen', 'acid-acorn-acre-'],
    ['digits', 'acid-acorn-4cre'],
    ['letters outside a-z', 'café-acorn-acre'],
    ['a path traversal in the lookup', '../acid-acorn'],
    ['an empty string', ''],
  ])('rejects %s', (_attack, code) => {
    expect(isCodeShape(code)).toBe(false);
  });
});

describe('isKnownCode', () => {
  it('every generated code is known', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        fc.constantFrom<3 | 4>(3, 4),
        (indexes, wordCount) => {
          const queue = [...indexes];
          expect(isKnownCode(generateCode((max) => (queue.shift() ?? 0) % max, wordCount))).toBe(
            true,
          );
        },
      ),
    );
  });

  it.each([
    ['a word outside the list', 'acid-acorn-qwxz'],
    ['a word dropped from the list', 'acid-whole-acre'],
    ['a known word in a bad shape', 'acid-acorn'],
  ])('rejects %s', (_rule, code) => {
    expect(isKnownCode(code)).toBe(false);
  });
});
