import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCode } from './generate-code';
import { normalizeCode } from './normalize-code';

describe('normalizeCode', () => {
  it.each([
    ['capitals from a phone keyboard are lowered', 'Acid-Acorn-Acre', 'acid-acorn-acre'],
    ['spaces between words become hyphens', 'acid acorn acre', 'acid-acorn-acre'],
    ['a run of mixed separators becomes one hyphen', 'acid -_ acorn.,\tacre', 'acid-acorn-acre'],
    [
      'surrounding whitespace and separators are dropped',
      '  -acid-acorn-acre-. \n',
      'acid-acorn-acre',
    ],
    [
      'a dash a chat app substituted for a hyphen still separates',
      'acid–acorn—acre',
      'acid-acorn-acre',
    ],
    [
      'a no-break space from a paste still separates',
      'acid\u00a0acorn\u00a0acre',
      'acid-acorn-acre',
    ],
    ['decomposed letters are composed', 'cafe\u0301-acid-acre', 'café-acid-acre'],
    ['an empty field stays empty', ' \t ', ''],
  ])('%s', (_rule, input, expected) => {
    expect(normalizeCode(input)).toBe(expected);
  });

  const decoratedSeparator = fc
    .array(fc.constantFrom(' ', '-', '_', '.', ',', '\t', '–'), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join(''));
  const padding = fc
    .array(fc.constantFrom(' ', '-', '\n', '.'), { maxLength: 3 })
    .map((parts) => parts.join(''));
  const randomIndexes = fc.array(fc.nat(), { minLength: 4, maxLength: 4 });

  it('a code typed with any separators, case and padding normalizes to the issued code', () => {
    fc.assert(
      fc.property(
        randomIndexes,
        fc.constantFrom<3 | 4>(3, 4),
        fc.array(decoratedSeparator, { minLength: 3, maxLength: 3 }),
        padding,
        padding,
        fc.boolean(),
        (indexes, wordCount, separators, before, after, shout) => {
          const queue = [...indexes];
          const code = generateCode((max) => (queue.shift() ?? 0) % max, wordCount);
          const typed = code
            .split('-')
            .map((word, i) => (i === 0 ? word : `${separators[i - 1] ?? '-'}${word}`))
            .join('');
          const decorated = `${before}${shout ? typed.toUpperCase() : typed}${after}`;
          expect(normalizeCode(decorated)).toBe(code);
        },
      ),
    );
  });

  it('normalizing twice changes nothing and never leaves stray hyphens', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (input) => {
        const normalized = normalizeCode(input);
        expect(normalizeCode(normalized)).toBe(normalized);
        expect(normalized).not.toMatch(/^-|-$|--/);
        expect(normalized).toBe(normalized.normalize('NFC'));
      }),
    );
  });
});
