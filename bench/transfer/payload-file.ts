import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';

// Random, so nothing on the way could shrink it; repeated, so gigabytes are quick to write.
const BLOCK_BYTES = 16 * 1024 * 1024;

/** Writes `bytes` of incompressible data to `path`. */
export async function writePayload(path: string, bytes: number): Promise<void> {
  const block = randomBytes(Math.min(BLOCK_BYTES, Math.max(1, bytes)));
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length) {
      await handle.write(block, 0, Math.min(block.length, bytes - written));
    }
  } finally {
    await handle.close();
  }
}
