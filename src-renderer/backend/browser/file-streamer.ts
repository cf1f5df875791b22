import {
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../../../src-shared/protocol/limits';
import { waitForBuffer } from './channel-buffer';
import { chunksOf, slabRanges, type ByteRange } from './chunk-plan';

/** The source could not be read to the end; `changed` when the browser saw it modified. */
export class SourceReadError extends Error {
  constructor(
    readonly changed: boolean,
    detail: string,
  ) {
    super(detail);
  }
}

/** What a sender reads: a picked or dropped File, or any Blob. */
export interface ByteSource {
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

async function readSlab(source: ByteSource, range: ByteRange): Promise<Uint8Array> {
  let bytes: ArrayBuffer;
  try {
    bytes = await source.slice(range.start, range.end).arrayBuffer();
  } catch (error) {
    // Chromium refuses to read a picked file whose size or modification time has changed since.
    const changed = error instanceof DOMException && error.name === 'NotReadableError';
    throw new SourceReadError(changed, error instanceof Error ? error.message : String(error));
  }
  const expected = range.end - range.start;
  if (bytes.byteLength !== expected) {
    throw new SourceReadError(
      true,
      `read ${bytes.byteLength} of ${expected} bytes at ${range.start}`,
    );
  }
  return new Uint8Array(bytes);
}

export interface StreamTarget {
  channel: RTCDataChannel;
  chunkBytes: number;
  /** Called after each chunk is handed to the channel. */
  sent(bytes: number): void;
}

/**
 * Sends `source` from `offset` to `end` (its announced size, never more) as binary chunks: read in 4 MiB slabs (the next one is
 * read while this one is sent), sub-sliced into chunks, pausing while more than 8 MiB waits in
 * the send buffer until it falls below 4 MiB.
 */
export async function streamFile(
  source: ByteSource,
  offset: number,
  end: number,
  target: StreamTarget,
  signal: AbortSignal,
): Promise<void> {
  const { channel, chunkBytes, sent } = target;
  const ranges = slabRanges(offset, end);
  let next = ranges.length > 0 ? readSlab(source, ranges[0]) : undefined;
  for (let index = 0; index < ranges.length && next !== undefined; index += 1) {
    const slab = await next;
    next = index + 1 < ranges.length ? readSlab(source, ranges[index + 1]) : undefined;
    // A read that fails after the stream was abandoned must not surface as an unhandled rejection.
    next?.catch(() => undefined);
    for (const chunk of chunksOf(slab, chunkBytes)) {
      signal.throwIfAborted();
      if (channel.bufferedAmount > SEND_BUFFER_HIGH_WATER_BYTES) {
        await waitForBuffer(channel, SEND_BUFFER_LOW_WATER_BYTES, signal);
      }
      channel.send(chunk as Uint8Array<ArrayBuffer>);
      sent(chunk.byteLength);
    }
  }
}
