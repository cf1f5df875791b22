/**
 * Where a browser receiver puts what arrives, one file at a time as the receiver machine says:
 * open, write, then commit or discard. Calls come strictly in order, one at a time.
 */
export interface SaveTarget {
  /** What the accept prompt shows under "Save to". */
  readonly label: string;
  /** The folder the done screen names, when the files went into one. */
  readonly folder?: string;
  /** `path` is sanitized, relative and `/`-separated; `fileSize` null when none was announced. */
  open(index: number, path: string, fileSize: number | null): Promise<void>;
  write(index: number, bytes: Uint8Array): Promise<void>;
  /** Resolves with the name the file was saved under. */
  commit(index: number): Promise<string>;
  discard(index: number): Promise<void>;
}

/** A download cannot hold a folder: `album/raw/a.cr2` is saved as `album_raw_a.cr2`. */
export function downloadName(path: string): string {
  return path.split('/').join('_');
}
