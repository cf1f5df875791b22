import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src-shared/protocol/error-codes';
import { asSentence } from '../../src-shared/format/as-sentence';
import { countOf } from '../../src-shared/format/count-of';
import { describeFailure, FAMILY_OF_CODE } from './describe-failure';

describe('engine messages read as sentences', () => {
  it.each([
    ['code not found or expired', 'Code not found or expired.'],
    ['  no data arrived within 30s ', 'No data arrived within 30s.'],
    [
      'Update Ferry: the other device needs version 2.',
      'Update Ferry: the other device needs version 2.',
    ],
    ['Really?', 'Really?'],
    ['', ''],
  ])('%j reads %j', (message, sentence) => {
    expect(asSentence(message)).toBe(sentence);
  });
});

describe('counts agree with their nouns', () => {
  it.each([
    [1, 'file', '1 file'],
    [0, 'file', '0 files'],
    [1204, 'file', '1,204 files'],
  ])('%d %s', (count, noun, text) => {
    expect(countOf(count, noun)).toBe(text);
  });
});

describe('every failure has a heading of its own family', () => {
  it('covers every error code the protocol can report', () => {
    const unheaded = ERROR_CODES.filter((code) => FAMILY_OF_CODE[code] === undefined);
    expect(unheaded).toEqual([]);
  });

  it('falls back to a plain heading for a code it does not know', () => {
    expect(describeFailure('ERR_SOMETHING_NEW')).toEqual({
      heading: 'Transfer failed',
      retry: true,
    });
    expect(describeFailure('toString')).toEqual({ heading: 'Transfer failed', retry: true });
  });
});
