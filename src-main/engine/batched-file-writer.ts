import type { FileHandle } from 'node:fs/promises';
import { batchBuffers, type BatchBuffer } from './batch-buffers';
import { WRITE_BATCH_BYTES } from '../../src-shared/session/session-limits';

/** What a file system answers a direct write it cannot do (alignment, or no support at all). */
const DIRECT_IO_REFUSED = new Set(['EINVAL', 'EOPNOTSUPP', 'ENOTSUP']);

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

interface Batch {
  buffer: BatchBuffer;
  length: number;
  /** Writes whose last byte is in this batch: on disk once it is. */
  waiters: Waiter[];
}

/** The same file opened twice: once as usual, once for direct I/O when the system allows it. */
export interface WriteHandles {
  buffered: FileHandle;
  /** Opened with O_DIRECT: whole aligned batches bypass the page cache. */
  direct: Pick<FileHandle, 'write'> | undefined;
}

/**
 * Appends to a new file in order, copying what it is given into reusable batch buffers and
 * writing each as it fills (the rest on flush). The handles stay the caller's.
 *
 * Whole batches go through the direct handle where there is one: streaming gigabytes through the
 * page cache costs the kernel more CPU than the network transfer itself on small machines, and
 * evicts everything else cached. A file system that refuses a direct write gets buffered writes
 * from then on.
 */
export class BatchedFileWriter {
  readonly #buffered: FileHandle;
  #direct: WriteHandles['direct'];
  #filling: Batch | undefined;
  readonly #full: Batch[] = [];
  #writing: Promise<void> | undefined;
  #written = 0;
  #failure: Error | undefined;

  /** `startAt`: bytes already in the file (a resumed `.part`), a whole number of blocks. */
  constructor(handles: WriteHandles, startAt = 0) {
    this.#buffered = handles.buffered;
    this.#direct = handles.direct;
    this.#written = startAt;
  }

  /** Bytes on disk so far. */
  get written(): number {
    return this.#written;
  }

  /** Set once a write failed; every later write fails with it. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Appends `bytes` (copied at once, so the caller may reuse them); resolves once on disk. */
  write(bytes: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#failure !== undefined) return reject(this.#failure);
      if (bytes.byteLength === 0) return resolve();
      let copied = 0;
      let last: Batch | undefined;
      while (copied < bytes.byteLength) {
        last = this.#filling ??= { buffer: batchBuffers.take(), length: 0, waiters: [] };
        const count = Math.min(bytes.byteLength - copied, WRITE_BATCH_BYTES - last.length);
        last.buffer.bytes.set(bytes.subarray(copied, copied + count), last.length);
        last.length += count;
        copied += count;
        if (last.length === WRITE_BATCH_BYTES) {
          this.#full.push(last);
          this.#filling = undefined;
        }
      }
      last?.waiters.push({ resolve, reject });
      this.#startWriting();
    });
  }

  /** Everything handed to write() is on disk, or has failed. */
  async flush(): Promise<void> {
    if (this.#filling !== undefined) {
      this.#full.push(this.#filling);
      this.#filling = undefined;
      this.#startWriting();
    }
    while (this.#writing !== undefined) await this.#writing;
  }

  /**
   * Drops whatever has not reached the disk yet, once any write under way ended; the writes
   * dropped resolve, since their file is going away.
   */
  async abandon(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
    const dropped = [...this.#full, ...(this.#filling === undefined ? [] : [this.#filling])];
    this.#full.length = 0;
    this.#filling = undefined;
    for (const batch of dropped) {
      for (const waiter of batch.waiters) waiter.resolve();
      batchBuffers.give(batch.buffer);
    }
  }

  #startWriting(): void {
    if (this.#writing === undefined && this.#full.length > 0) this.#writing = this.#writeFull();
  }

  async #writeFull(): Promise<void> {
    for (let batch = this.#full.shift(); batch !== undefined; batch = this.#full.shift()) {
      try {
        await this.#writeBatch(batch);
      } catch (error) {
        this.#fail(error instanceof Error ? error : new Error(String(error)), batch);
        break;
      }
      this.#written += batch.length;
      for (const waiter of batch.waiters) waiter.resolve();
      batchBuffers.give(batch.buffer);
    }
    // Cleared in the same turn as the last check, so a write arriving later starts a new round.
    this.#writing = undefined;
  }

  /** Writes `batch` at the end of what is on disk: directly when it can, buffered otherwise. */
  async #writeBatch(batch: Batch): Promise<void> {
    const bytes = batch.buffer.bytes.subarray(0, batch.length);
    let done = 0;
    // Every batch before a whole one was whole too, so its offset is aligned as well.
    if (this.#direct !== undefined && batch.buffer.aligned && batch.length === WRITE_BATCH_BYTES) {
      try {
        done = (await this.#direct.write(bytes, 0, bytes.byteLength, this.#written)).bytesWritten;
      } catch (error) {
        if (!DIRECT_IO_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        this.#direct = undefined;
      }
    }
    while (done < bytes.byteLength) {
      const { bytesWritten } = await this.#buffered.write(
        bytes,
        done,
        bytes.byteLength - done,
        this.#written + done,
      );
      done += bytesWritten;
    }
  }

  #fail(failure: Error, failed: Batch): void {
    this.#failure = failure;
    const rest = [failed, ...this.#full, ...(this.#filling === undefined ? [] : [this.#filling])];
    this.#full.length = 0;
    this.#filling = undefined;
    for (const batch of rest) {
      for (const waiter of batch.waiters) waiter.reject(failure);
      batchBuffers.give(batch.buffer);
    }
  }
}
