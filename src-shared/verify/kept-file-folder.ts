import type { FileIdentity } from './part-sidecar';

/** A plain file in the receiver's folder, open for reading. */
export interface KeptFileReader {
  readonly size: number;
  /** When it last changed, in milliseconds since the epoch. */
  readonly modified: number;
  /** Which file it is, as its file system tells (device and inode), where the runtime can tell. */
  readonly fileId?: string;
  /** Bytes `[start, end)`. */
  read(start: number, end: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * One folder of a receiver's destination, as the lookup of kept files needs it: each runtime
 * translates its own file API (`node:fs`, the File System Access API), nothing more.
 */
export interface KeptFileFolder<Part> {
  /** The plain file `name`, never reached through a link; undefined when there is none. */
  open(name: string): Promise<KeptFileReader | undefined>;
  /**
   * Opens the kept `partName` to write on after its first `startAt` bytes; the rest is cut off.
   * `hashed` is the `fileId` of what was checked: a file that took the name since is refused.
   */
  reopen(
    partName: string,
    kept: {
      identity: FileIdentity;
      blocks: readonly Uint8Array[];
      startAt: number;
      hashed?: string;
    },
  ): Promise<Part>;
  names(): Promise<string[]>;
  remove(name: string): Promise<void>;
  /** Adds `text` at the end of the plain file `name`, created when missing. */
  append(name: string, text: string): Promise<void>;
  /** Replaces the plain file `name` with one holding `text`, all at once or not at all. */
  replace(name: string, text: string): Promise<void>;
}
