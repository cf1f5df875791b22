import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../src-shared/format/format-bytes';
import { IN_MEMORY_WARNING_BYTES } from '../../../src-shared/protocol/limits';
import { blobDownloadLabel } from './save-choice';

describe('saving a receive built into a Blob, the last resort', () => {
  it('says so under "Save to"', () => {
    expect(blobDownloadLabel(10 * 1024 * 1024, true)).toBe(
      'Your browser’s downloads (saved once the last byte arrives)',
    );
  });

  it('warns before a transfer above the threshold is accepted, with its size and the way out', () => {
    expect(blobDownloadLabel(IN_MEMORY_WARNING_BYTES, true)).toBe(
      'Your browser’s downloads (saved once the last byte arrives)',
    );
    expect(blobDownloadLabel(IN_MEMORY_WARNING_BYTES + 1, true)).toBe(
      `Your browser’s downloads (saved once the last byte arrives). This page was opened over plain HTTP, so the browser holds all ${formatBytes(IN_MEMORY_WARNING_BYTES + 1)} until then, which a phone may not have room for: the Ferry desktop app, or this page over HTTPS, saves straight to disk`,
    );
    expect(blobDownloadLabel(3 * 1024 ** 3, true)).toContain(
      `holds all ${formatBytes(3 * 1024 ** 3)} until then`,
    );
  });

  it('says why in terms of this page, and blames no plain HTTP where the page is secure', () => {
    expect(blobDownloadLabel(3 * 1024 ** 3, false)).toContain(
      'This browser cannot stream a download here, so the browser holds all',
    );
  });
});
