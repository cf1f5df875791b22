import { open, type FileHandle } from 'node:fs/promises';
import type {
  FileSource,
  ReadOutcome,
  SourceReader as SourceReaderPort,
} from '../../src-shared/session/file-source';
import type { SendFile } from './send-list';
import { errorMessage } from '../../src-shared/format/error-message';

/** A listed disk file as the session core's file source (docs/architecture.md, "Ports"). */
export function diskFileSource(file: SendFile): FileSource {
  return {
    name: file.name,
    size: file.size,
    open: (offset, chunkBytes) => SourceReader.open(file, chunkBytes, offset),
  };
}

/**
 * Reads one file of a batch into a single chunk-sized buffer, never past the size it had when
 * the batch was listed (a growing file cannot overrun its announcement), and notices when the file
 * changed since (size or modification time).
 */
export class SourceReader implements SourceReaderPort {
  readonly #file: SendFile;
  readonly #handle: FileHandle;
  readonly #buffer: Buffer;
  #position: number;

  private constructor(file: SendFile, handle: FileHandle, chunkBytes: number, offset: number) {
    this.#file = file;
    this.#handle = handle;
    this.#buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, file.size)));
    this.#position = offset;
  }

  static async open(
    file: SendFile,
    chunkBytes: number,
    offset: number,
  ): Promise<SourceReader | { kind: 'unreadable'; detail: string }> {
    try {
      const handle = await open(file.path, 'r');
      return new SourceReader(file, handle, chunkBytes, offset);
    } catch (error) {
      return { kind: 'unreadable', detail: errorMessage(error) };
    }
  }

  get done(): boolean {
    return this.#position >= this.#file.size;
  }

  /**
   * The next chunk, in the reader's own buffer: valid until the next call. node-datachannel copies
   * what it sends, so the same buffer serves the whole file.
   */
  async next(): Promise<ReadOutcome> {
    const wanted = Math.min(this.#buffer.length, this.#file.size - this.#position);
    let bytesRead: number;
    try {
      ({ bytesRead } = await this.#handle.read(this.#buffer, 0, wanted, this.#position));
    } catch (error) {
      return { kind: 'unreadable', detail: errorMessage(error) };
    }
    if (bytesRead === 0) return { kind: 'changed', detail: 'it became shorter' };
    this.#position += bytesRead;
    return { kind: 'bytes', bytes: this.#buffer.subarray(0, bytesRead) };
  }

  /** How the file differs from when it was listed, or undefined when it does not. */
  async change(): Promise<string | undefined> {
    try {
      const now = await this.#handle.stat();
      if (now.size !== this.#file.size)
        return `its size went from ${this.#file.size} to ${now.size} bytes`;
      if (now.mtimeMs !== this.#file.mtimeMs) return 'it was modified';
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  }

  async close(): Promise<void> {
    await this.#handle.close().catch(() => undefined);
  }
}
