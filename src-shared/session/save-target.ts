/** Where a committed file ended up. */
export interface SavedFile {
  /** Relative path it was saved under, `/`-separated (it may differ from the announced one). */
  name: string;
  /** Its full path on this device, when the runtime knows it (native peers). */
  savedPath?: string;
}

/** What an earlier try left of a file: its first `offset` bytes, vouched for by their digests. */
export interface ResumePoint {
  /** A whole number of blocks, or the whole file; 0 when nothing usable was found. */
  offset: number;
  /** The digests of the blocks covering `[0, offset)`, the last one short when it ends the file. */
  blocks: Uint8Array[];
}

/**
 * Where a receiver puts what arrives (docs/architecture.md, "Ports"): `.part` files on a native
 * peer; a chosen folder, streamed downloads or memory in a browser. The session core calls it in
 * the receiver machine's order: open, writes, then commit or discard.
 */
export interface SaveTarget {
  /** The folder the done screen names, when the files went into one. */
  readonly folder?: string;
  /** `path` is sanitized, relative and `/`-separated; `fileSize` 0 when none was announced. */
  open(index: number, path: string, fileSize: number): Promise<void>;
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
  /**
   * Drops the file and whatever of it was written, pending writes included; with `keep`, a target
   * that resumes leaves what reached the disk, and its sidecar, for a later try.
   */
  discard(index: number, keep?: boolean): Promise<void>;
  /**
   * Where the target can resume (docs/protocol.md, "Resume"): opens file `index` like `open`,
   * but first looks for what an earlier try from the same sender left of it (a `.part` with its
   * sidecar, or the finished file itself) and checks it block by block. Anything it cannot vouch
   * for is ignored, and the file starts at 0.
   */
  resume?(
    index: number,
    path: string,
    fileSize: number,
    senderFileId: string,
  ): Promise<ResumePoint>;
  /** A full block of a resumable file has this digest; kept once the block is on disk. */
  recordBlock?(index: number, block: number, digest: Uint8Array): void;
  /** The sender refused the resume: file `index` starts over, empty. */
  restart?(index: number): Promise<void>;
  /**
   * Bytes this side may still write where the files go, and the size of that volume
   * (docs/protocol.md, "Free space"); the session core refuses a batch or a file that would leave
   * less than its reserve free. Absent where the runtime cannot tell (a browser), and then nothing
   * is checked.
   */
  freeSpace?(): Promise<FreeSpace>;
}

/** What a save target reads of its volume. */
export interface FreeSpace {
  freeBytes: number;
  volumeBytes: number;
}
