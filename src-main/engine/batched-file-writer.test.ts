import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_BATCH_BYTES } from '../../src-shared/session/session-limits';
import { BatchedFileWriter, type WriteHandles } from './batched-file-writer';
import { scratchFolder } from './test-support/files-on-disk';

let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
});

afterAll(async () => {
  await scratch.remove();
});

/** `data` cut into chunks of the sizes given, over and over, empty ones included. */
function chunked(data: Uint8Array, sizes: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0, n = 0; at < data.byteLength; n += 1) {
    const size = sizes[n % sizes.length];
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

async function writeThrough(
  path: string,
  data: Uint8Array,
  direct: (path: string) => Promise<WriteHandles['direct']>,
): Promise<number> {
  const buffered = await open(path, 'wx');
  const writer = new BatchedFileWriter({ buffered, direct: await direct(path) });
  const written = chunked(data, [262_144, 0, 1, 65_536, 300_001]).map((chunk) =>
    writer.write(chunk),
  );
  await writer.flush();
  await Promise.all(written);
  await buffered.close();
  return writer.written;
}

const threeAndABitBatches = () => randomBytes(3 * WRITE_BATCH_BYTES + 12_345);

describe('a file written in batches', () => {
  it('lands byte for byte across batch boundaries, with direct I/O where the system has it', async () => {
    const data = threeAndABitBatches();
    const path = join(scratch.path, 'direct.bin');
    const handles: { close(): Promise<void> }[] = [];
    const written = await writeThrough(path, data, async (file) => {
      if (constants.O_DIRECT === undefined) return undefined;
      const handle = await open(file, constants.O_WRONLY | constants.O_DIRECT).catch(
        () => undefined,
      );
      if (handle) handles.push(handle);
      return handle;
    });
    await Promise.all(handles.map((handle) => handle.close()));

    expect(written).toBe(data.byteLength);
    expect((await readFile(path)).equals(data)).toBe(true);
  });

  it('falls back to buffered writes, losing nothing, when the file system refuses direct ones', async () => {
    const data = threeAndABitBatches();
    const path = join(scratch.path, 'refused.bin');
    let directAttempts = 0;
    const refusing: WriteHandles['direct'] = {
      write: async () => {
        directAttempts += 1;
        throw Object.assign(new Error('Invalid argument'), { code: 'EINVAL' });
      },
    };

    const written = await writeThrough(path, data, async () => refusing);

    expect(written).toBe(data.byteLength);
    expect((await readFile(path)).equals(data)).toBe(true);
    expect(directAttempts).toBe(1);
  });

  it('fails the write that did not reach the disk, and every write after it', async () => {
    const path = join(scratch.path, 'failing.bin');
    const buffered = await open(path, 'wx');
    const writer = new BatchedFileWriter({ buffered, direct: undefined });
    await buffered.close();

    const first = writer.write(randomBytes(WRITE_BATCH_BYTES));
    await expect(first).rejects.toThrow();
    await expect(writer.write(randomBytes(10))).rejects.toBe(writer.failure);
    expect(writer.written).toBe(0);
  });
});
