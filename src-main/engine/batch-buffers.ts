import { ALIGNED_BATCHES, WRITE_BATCH_BYTES } from '../../src-shared/session/session-limits';

/** The size of a WebAssembly memory page, fixed by the WebAssembly specification. */
const WASM_PAGE_SIZE = 64 * 1024;

// Node has it at run time; its type definitions (ES2022 lib, no DOM) do not declare the value.
declare const WebAssembly: {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
};

export interface BatchBuffer {
  bytes: Uint8Array;
  /** Starts on a page boundary, so direct (unbuffered) I/O can take it. */
  aligned: boolean;
}

/**
 * Batch buffers, reused rather than reallocated. Chunks are copied into them instead of being
 * kept: a chunk held until its batch is on disk outlives V8's young generation, and a gigabyte of
 * those makes V8 run a full collection every few dozen megabytes.
 *
 * The aligned ones are slices of one WebAssembly memory, the only page-aligned allocation
 * JavaScript has: O_DIRECT writes need an aligned address.
 */
class BatchBufferPool {
  #aligned: Uint8Array[] | undefined;
  readonly #spareOrdinary: Uint8Array[] = [];

  take(): BatchBuffer {
    this.#aligned ??= alignedSlices();
    const aligned = this.#aligned.pop();
    if (aligned !== undefined) return { bytes: aligned, aligned: true };
    return {
      bytes: this.#spareOrdinary.pop() ?? new Uint8Array(WRITE_BATCH_BYTES),
      aligned: false,
    };
  }

  give(buffer: BatchBuffer): void {
    if (buffer.aligned) this.#aligned?.push(buffer.bytes);
    else if (this.#spareOrdinary.length < ALIGNED_BATCHES) this.#spareOrdinary.push(buffer.bytes);
  }
}

function alignedSlices(): Uint8Array[] {
  const memory = new WebAssembly.Memory({
    initial: (ALIGNED_BATCHES * WRITE_BATCH_BYTES) / WASM_PAGE_SIZE,
  });
  return Array.from(
    { length: ALIGNED_BATCHES },
    (_, n) => new Uint8Array(memory.buffer, n * WRITE_BATCH_BYTES, WRITE_BATCH_BYTES),
  );
}

export const batchBuffers = new BatchBufferPool();
