import { describe, expect, it } from 'vitest';
import { BLOB_PART_BYTES } from '../../../src-shared/protocol/limits';
import { BlobParts } from './blob-parts';

/** A Blob's bytes, read as a page reads them (jsdom's Blob has no arrayBuffer()). */
function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

describe('a download built into Blob parts', () => {
  it('keeps every byte in order across the parts it folds', async () => {
    const chunkBytes = 1024 * 1024 + 7;
    const count = Math.ceil((2.5 * BLOB_PART_BYTES) / chunkBytes);
    const parts = new BlobParts();
    const sent = new Uint8Array(count * chunkBytes);
    for (let index = 0; index < count; index += 1) {
      const chunk = new Uint8Array(chunkBytes).map((_, at) => (index * 31 + at) % 251);
      sent.set(chunk, index * chunkBytes);
      parts.write(chunk);
    }
    const blob = parts.blob();
    expect(blob.size).toBe(sent.byteLength);
    expect(Buffer.compare(await bytesOf(blob), sent)).toBe(0);
  });

  it('is an empty Blob when nothing was written', () => {
    expect(new BlobParts().blob().size).toBe(0);
  });
});
