/** The part of FileDigest (src-shared/verify/file-digest.ts) a rate is measured through. */
export interface Digest {
  update(bytes: Uint8Array): Promise<void> | undefined;
  finish(): Promise<string>;
}

/** `getRandomValues` fills at most this much at once. */
const RANDOM_FILL_BYTES = 65_536;

/**
 * MB/s (10^6 bytes a second) of one digest over `totalMiB` MiB, fed in `chunkBytes` pieces: one
 * random block, fed again and again, so the source costs nothing. Bundled into the bench's page
 * as well, so Node and Chromium measure the same loop.
 */
export async function digestRate(
  digest: Digest,
  totalMiB: number,
  blockBytes: number,
  chunkBytes: number,
): Promise<number> {
  const block = new Uint8Array(blockBytes);
  for (let at = 0; at < blockBytes; at += RANDOM_FILL_BYTES) {
    globalThis.crypto.getRandomValues(block.subarray(at, at + RANDOM_FILL_BYTES));
  }
  const total = totalMiB * 1024 * 1024;
  const started = performance.now();
  for (let done = 0; done < total; done += blockBytes) {
    for (let at = 0; at < blockBytes; at += chunkBytes) {
      await digest.update(block.subarray(at, at + chunkBytes));
    }
  }
  await digest.finish();
  return total / 1e6 / ((performance.now() - started) / 1000);
}
