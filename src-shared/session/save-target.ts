/** Where a committed file ended up. */
export interface SavedFile {
  /** Relative path it was saved under, `/`-separated (it may differ from the announced one). */
  name: string;
  /** Its full path on this device, when the runtime knows it (native peers). */
  savedPath?: string;
}

/**
 * Where a receiver puts what arrives (docs/architecture.md, "Ports"): `.part` files on a native
 * peer; a chosen folder, streamed downloads or memory in a browser. The session core calls it in
 * the receiver machine's order: open, writes, then commit or discard.
 */
export interface SaveTarget {
  /** The folder the done screen names, when the files went into one. */
  readonly folder?: string;
  /** `path` is sanitized, relative and `/`-separated; `fileSize` null when none was announced. */
  open(index: number, path: string, fileSize: number | null): Promise<void>;
  /**
   * Takes `bytes` for file `index`, which stays open until commit or discard. The core issues the
   * next write without waiting for this one to settle, so a target keeps writes in call order
   * and copies what it keeps; the promise settles once the bytes are stored.
   */
  write(index: number, bytes: Uint8Array): Promise<void>;
  /**
   * Stores every write still pending, then gives the file its final name; rejects (leaving
   * nothing behind) when any write failed. A file that did not verify never gets a final name.
   */
  commit(index: number): Promise<SavedFile>;
  /** Drops the file and whatever of it was written, pending writes included. */
  discard(index: number): Promise<void>;
}
