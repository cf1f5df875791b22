import { describe, expect, it } from 'vitest';
import { VERIFY_BLOCK_BYTES } from './limits';
import { keepsWhatArrived, offerableOffset, onBlockBoundary } from './resume-offset';
import { isTextBatch } from './text-batch';

// docs/protocol.md, "Resume" and "Text messages".
const PREFIX = 'c'.repeat(64);
const SIZE = 2 * VERIFY_BLOCK_BYTES + 7;

describe('the resume offset', () => {
  it('lies on a block boundary or at the end of the file', () => {
    expect(onBlockBoundary(VERIFY_BLOCK_BYTES, SIZE)).toBe(true);
    expect(onBlockBoundary(SIZE, SIZE)).toBe(true);
    expect(onBlockBoundary(VERIFY_BLOCK_BYTES + 1, SIZE)).toBe(false);
  });

  it('is offered only with a digest, within the file, past 0', () => {
    expect(offerableOffset(VERIFY_BLOCK_BYTES, PREFIX, SIZE)).toBe(true);
    expect(offerableOffset(VERIFY_BLOCK_BYTES, undefined, SIZE)).toBe(false);
    expect(offerableOffset(0, PREFIX, SIZE)).toBe(false);
    expect(offerableOffset(3 * VERIFY_BLOCK_BYTES, PREFIX, SIZE)).toBe(false);
    expect(offerableOffset(Number.NaN, PREFIX, SIZE)).toBe(false);
  });

  it('keeps what arrived only on failures that say nothing against it', () => {
    expect(
      ['ERR_PEER_CLOSED', 'ERR_PEER_CANCELLED', 'ERR_CANCELLED', 'ERR_STALLED'].every(
        keepsWhatArrived,
      ),
    ).toBe(true);
    expect(keepsWhatArrived('ERR_OVERRUN')).toBe(false);
  });
});

describe('the text batch', () => {
  const file = { index: 0, path: 'message.txt', fileSize: 12, sizeAnnounced: true };

  it('is one announced message.txt within the limit, offered by both', () => {
    expect(isTextBatch(true, 1, file)).toBe(true);
    expect(isTextBatch(false, 1, file)).toBe(false);
    expect(isTextBatch(true, 2, file)).toBe(false);
    expect(isTextBatch(true, 1, { ...file, path: 'notes.txt' })).toBe(false);
    expect(isTextBatch(true, 1, { ...file, sizeAnnounced: false })).toBe(false);
    expect(isTextBatch(true, 1, { ...file, fileSize: 2 * 1024 * 1024 })).toBe(false);
  });
});
