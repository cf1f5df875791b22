import { describe, expect, it } from 'vitest';
import { isUnderWay, progressFraction } from './progress-fraction';
import type { ProgressView, TransferView } from './transfer-view';

const progress = (bytesDone: number, totalBytes: number): ProgressView => ({
  fileIndex: 1,
  fileCount: 1,
  fileName: 'a.bin',
  fileBytes: bytesDone,
  fileSize: totalBytes,
  bytesDone,
  totalBytes,
  bytesPerSecond: 0,
});

describe('how far a transfer has come', () => {
  it('is the share of bytes done while files move, a restored link included', () => {
    expect(
      progressFraction({ phase: 'transferring', direction: 'send', progress: progress(25, 100) }),
    ).toBe(0.25);
    expect(
      progressFraction({
        phase: 'reconnecting',
        direction: 'receive',
        attempt: 2,
        bytesDone: 50,
        totalBytes: 200,
      }),
    ).toBe(0.25);
    expect(
      progressFraction({ phase: 'transferring', direction: 'send', progress: progress(0, 0) }),
    ).toBe(1);
  });

  it('is nothing before the files move and after they arrived', () => {
    const views: TransferView[] = [
      { phase: 'idle' },
      { phase: 'connecting', direction: 'receive', code: 'acid-otter-plank', stage: 'finding' },
      { phase: 'done', direction: 'send', files: [], totalBytes: 0 },
    ];
    for (const view of views) expect(progressFraction(view)).toBeUndefined();
  });

  it('counts a transfer as under way from its code to its outcome', () => {
    expect(
      isUnderWay({
        phase: 'waiting-for-peer',
        direction: 'send',
        code: 'a-b-c',
        files: [],
        totalBytes: 0,
      }),
    ).toBe(true);
    expect(isUnderWay({ phase: 'idle' })).toBe(false);
    expect(
      isUnderWay({ phase: 'failed', direction: 'send', code: 'ERR_CANCELLED', message: 'x' }),
    ).toBe(false);
  });
});
