import { describe, expect, it } from 'vitest';
import { acceptQuestion, describeOffer } from './describe-offer';

describe('the receiver is shown what the protocol has announced', () => {
  it('a batch names its count, total size, first file and the sender’s version', () => {
    expect(
      describeOffer({
        firstFileName: 'photos/a.jpg',
        fileCount: 3,
        totalBytes: 64 * 1024 * 1024,
        senderVersion: '0.1.0',
      }),
    ).toBe(
      'Incoming: 3 files, 64.0 MB in all, starting with "photos/a.jpg" (sender runs Ferry 0.1.0).',
    );
  });

  it('a single file is named as the whole offer', () => {
    expect(describeOffer({ firstFileName: 'report.pdf', fileCount: 1, totalBytes: 2048 })).toBe(
      'Incoming: 1 file, 2.00 KB in all, "report.pdf".',
    );
  });

  it('then asks about the destination, no by default', () => {
    expect(acceptQuestion('/home/ana/Downloads')).toBe('Save to /home/ana/Downloads? [y/N] ');
  });
});
