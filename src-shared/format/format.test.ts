import { describe, expect, it } from 'vitest';
import { formatBytes, formatSpeed } from './format-bytes';
import { formatDuration } from './format-duration';

describe('sizes read as a file manager shows them', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [1024, '1.0 kB'],
    [1_200_000, '1.2 MB'],
    [999_999, '1.0 MB'],
    [14_400_000, '14.4 MB'],
    [143_200_000, '143.2 MB'],
    [1_500_000_000, '1.5 GB'],
    [-1, '0 B'],
    [Number.NaN, '0 B'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('a speed is a size per second', () => {
    expect(formatSpeed(2_000_000)).toBe('2.0 MB/s');
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
