import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REPORT_BYTES } from '../signaling/limits';
import { reportedBytes } from './byte-count-report';

describe('the byte count a receiver reports', () => {
  it('is what travelled, within a batch', () => {
    expect(reportedBytes(1_000, 5_000)).toBe(1_000);
  });

  it('is never more than the batch, though bytes sent again after a lost link travelled twice', () => {
    expect(reportedBytes(7_000, 5_000)).toBe(5_000);
  });

  it('is never more than a server takes in one report, however large the batch', () => {
    const huge = 2 * DEFAULT_MAX_REPORT_BYTES;
    expect(reportedBytes(huge, huge)).toBe(DEFAULT_MAX_REPORT_BYTES);
  });
});
