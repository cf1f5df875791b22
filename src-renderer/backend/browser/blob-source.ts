import type {
  FileSource,
  ReadOutcome,
  SourceReader,
} from '../../../src-shared/session/file-source';
import { chunksOf, slabRanges, type ByteRange } from './chunk-plan';
import { errorMessage } from '../../../src-shared/format/error-message';

/** What a sender reads: a picked or dropped File, or any Blob. */
export interface ByteSource {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/**
 * A picked or dropped file as the session core's file source (docs/architecture.md, "Ports"):
 * read in 4 MiB slabs, the next one while this one is sent, sub-sliced into chunks without
 * copying (docs/protocol.md, "Chunk sizing").
 */
export function blobFileSource(name: string, source: ByteSource): FileSource {
  return {
    name,
    size: source.size,
    open: async (offset, chunkBytes) => new BlobReader(source, offset, chunkBytes),
  };
}

class BlobReader implements SourceReader {
  readonly #source: ByteSource;
  readonly #chunkBytes: number;
  readonly #ranges: ByteRange[];
  #nextSlab: Promise<ReadOutcome> | undefined;
  #slabIndex = 0;
  #chunks: Uint8Array[] = [];
  #left: number;

  constructor(source: ByteSource, offset: number, chunkBytes: number) {
    this.#source = source;
    this.#chunkBytes = chunkBytes;
    this.#ranges = slabRanges(offset, source.size);
    this.#left = Math.max(0, source.size - offset);
    this.#nextSlab = this.#read(0);
  }

  get done(): boolean {
    return this.#left === 0;
  }

  async next(): Promise<ReadOutcome> {
    if (this.#chunks.length === 0) {
      const slab = await this.#nextSlab;
      if (slab === undefined) return { kind: 'changed', detail: 'it became shorter' };
      if (slab.kind !== 'bytes') return slab;
      this.#slabIndex += 1;
      this.#nextSlab = this.#read(this.#slabIndex);
      this.#chunks = chunksOf(slab.bytes, this.#chunkBytes);
    }
    const chunk = this.#chunks.shift() ?? new Uint8Array();
    this.#left -= chunk.byteLength;
    return { kind: 'bytes', bytes: chunk };
  }

  /** Chromium refuses to read a file changed since it was picked, so reads tell; nothing more to ask. */
  async change(): Promise<string | undefined> {
    return undefined;
  }

  async close(): Promise<void> {
    this.#chunks = [];
  }

  #read(index: number): Promise<ReadOutcome> | undefined {
    const range = this.#ranges[index];
    return range === undefined ? undefined : readSlab(this.#source, range);
  }
}

async function readSlab(source: ByteSource, range: ByteRange): Promise<ReadOutcome> {
  let bytes: ArrayBuffer;
  try {
    bytes = await source.slice(range.start, range.end).arrayBuffer();
  } catch (error) {
    const detail = errorMessage(error);
    // Chromium refuses to read a picked file whose size or modification time has changed since.
    const changed = error instanceof DOMException && error.name === 'NotReadableError';
    return { kind: changed ? 'changed' : 'unreadable', detail };
  }
  const expected = range.end - range.start;
  if (bytes.byteLength !== expected) {
    return {
      kind: 'changed',
      detail: `read ${bytes.byteLength} of ${expected} bytes at ${range.start}`,
    };
  }
  return { kind: 'bytes', bytes: new Uint8Array(bytes) };
}
