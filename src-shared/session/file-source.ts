/** What one read of a file being sent gave. */
export type ReadOutcome =
  | { kind: 'bytes'; bytes: Uint8Array }
  /** The file is not what it was when the batch was listed (docs/protocol.md, "Errors"). */
  | { kind: 'changed'; detail: string }
  | { kind: 'unreadable'; detail: string };

/** One open file of a batch, read front to back from the offset it was opened at. */
export interface SourceReader {
  /** True once the announced size has been read: a growing file cannot overrun it. */
  readonly done: boolean;
  /**
   * The next chunk of at most the chunk size. Its bytes are only valid until the next call, so a
   * runtime may reuse one buffer for the whole file.
   */
  next(): Promise<ReadOutcome>;
  /** How the file differs from when it was listed, or undefined when it does not (or cannot tell). */
  change(): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * A file to send, as the session core sees it (docs/architecture.md, "Ports"): a disk file on a
 * native peer, a picked or dropped File in a browser.
 */
export interface FileSource {
  /** Relative path as shown, `/`-separated. */
  readonly name: string;
  readonly size: number;
  open(
    offset: number,
    chunkBytes: number,
  ): Promise<SourceReader | { kind: 'unreadable'; detail: string }>;
}
