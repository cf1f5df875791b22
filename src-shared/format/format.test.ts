import { describe, expect, it } from 'vitest';
import { formatBytes, formatSpeed } from './format-bytes';
import { formatDuration } from './format-duration';

describe('sizes read as a file manager shows them', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KB'],
    [64 * 1024 * 1024, '64.0 MB'],
    [1536 * 1024 * 1024, '1.50 GB'],
    [-1, '0 B'],
    [Number.NaN, '0 B'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('a speed is a size per second', () => {
    expect(formatSpeed(2 * 1024 * 1024)).toBe('2.00 MB/s');
  });
});

describe('remaining time reads in the largest sensible units', () => {
  it.each([
    [0, '0 s'],
    [44.6, '45 s'],
    [200, '3 min 20 s'],
    [3900, '1 h 05 min'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('%d seconds is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
