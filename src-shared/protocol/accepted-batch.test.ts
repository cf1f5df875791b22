import { describe, expect, it } from 'vitest';
import { AcceptedBatch } from './accepted-batch';
import type { IncomingMetadata } from './messages';

// docs/protocol.md, "Per-file sequence" and "Accepted batch".
const metadata = (index: number, fileSize: number | undefined, more = {}): IncomingMetadata => ({
  type: 'metadata',
  id: `f-${index}`,
  fileName: `dir/../file-${index}.bin`,
  fileSize,
  index,
  total: 2,
  totalBytes: 300,
  ...more,
});

describe('the accepted batch', () => {
  it('takes files in order within the bytes it was accepted at, with sanitized paths', () => {
    const batch = new AcceptedBatch();
    const first = batch.admit(0, metadata(1, 100));
    expect(first).toEqual({
      index: 0,
      id: 'f-1',
      path: 'dir/__/file-1.bin',
      fileSize: 100,
      sizeAnnounced: true,
    });
    expect(batch.admit(1, metadata(2, 200))).toMatchObject({ index: 1, fileSize: 200 });
    expect([batch.total, batch.totalBytes]).toEqual([2, 300]);
  });

  it('refuses a file out of order', () => {
    expect(new AcceptedBatch().admit(0, metadata(2, 100))).toBe(
      'file 2 of 2 arrived where file 1 was expected',
    );
  });

  it('refuses a later file that announces another batch size', () => {
    const batch = new AcceptedBatch();
    batch.admit(0, metadata(1, 100));
    expect(batch.admit(1, metadata(2, 100, { total: 3 }))).toBe(
      'file 2 announces a batch of 3 files, but 2 were accepted',
    );
  });

  it('refuses sizes that add up past the accepted bytes', () => {
    const batch = new AcceptedBatch();
    batch.admit(0, metadata(1, 100));
    expect(batch.admit(1, metadata(2, 201))).toBe(
      'file 2 announces 201 B, which takes the batch past the 300 B that were accepted',
    );
    expect(new AcceptedBatch().admit(0, metadata(1, 301))).toBe(
      'file 1 announces 301 B, more than the 300 B of the whole batch',
    );
  });

  it('reads an older single-file batch of 0 bytes as the file, and no size as 0', () => {
    const single = new AcceptedBatch();
    single.admit(0, metadata(1, 42, { total: 1, totalBytes: 0 }));
    expect(single.totalBytes).toBe(42);
    expect(new AcceptedBatch().admit(0, metadata(1, undefined))).toMatchObject({
      fileSize: 0,
      sizeAnnounced: false,
    });
  });
});
