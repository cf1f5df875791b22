import { describe, expect, it } from 'vitest';
import { IN_MEMORY_WARNING_BYTES } from '../../../src-shared/protocol/limits';
import { inMemoryLabel } from './save-choice';

describe('saving a receive in memory, the last resort', () => {
  it('says so under "Save to"', () => {
    expect(inMemoryLabel(10 * 1024 * 1024)).toBe(
      'Your browser’s downloads (kept in memory until the last byte arrives)',
    );
  });

  it('warns before a transfer above the threshold is accepted, with its size', () => {
    expect(inMemoryLabel(IN_MEMORY_WARNING_BYTES)).not.toMatch(/Warning/);
    expect(inMemoryLabel(IN_MEMORY_WARNING_BYTES + 1)).toMatch(/Warning: 268.4 MB may be more/);
    expect(inMemoryLabel(3 * 1024 ** 3)).toMatch(
      /Warning: 3.2 GB may be more than this browser can hold/,
    );
  });
});
