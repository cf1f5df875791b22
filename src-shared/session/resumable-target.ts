import type { KeptFileFolder } from '../verify/kept-file-folder';
import { findKeptFile, sweepKeptParts } from '../verify/kept-files';
import type { FileIdentity } from '../verify/part-sidecar';
import { recordReceipt } from '../verify/receipts';
import type { ResumePoint, SavedFile, SaveTarget } from './save-target';

/**
 * A received file while it arrives, staged as `<name>.part` beside where it will land: `PartFile`
 * on disk, `FolderPart` in a folder a browser was given. It never overwrites anything, and is
 * moved to its final name only once its byte count checks out (docs/protocol.md, "Per-file
 * sequence").
 */
export interface StagedPart {
  /** Appends `bytes` after everything written before; resolves once they are stored. */
  write(bytes: Uint8Array): Promise<void>;
  /** Notes a full block's digest in the sidecar, once the bytes handed over so far are stored. */
  recordBlock(block: number, digest: Uint8Array): void;
  /** Empties the file to start over from its first byte. */
  restart(): Promise<void>;
  /**
   * Checks the stored bytes against `expectedBytes` (any count when null), then moves the file to
   * the first free name of its own and returns that name, in its folder. Throws when a write
   * failed or the count does not match.
   */
  commit(expectedBytes: number | null): Promise<string>;
  /** Deletes the part; with `keep`, a resumable one stays, with its sidecar, for a later try. */
  discard(keep?: boolean): Promise<void>;
}

/** The folder a received file lands in, as the resumable target uses it. */
export interface PartFolder<Part extends StagedPart> {
  /** Tells this folder from the batch's others: each is swept of stale parts once a batch. */
  readonly key: string;
  /** The file's own name in this folder, as announced. */
  readonly name: string;
  /** This folder for the lookup of kept files and for receipts. */
  readonly kept: KeptFileFolder<Part>;
  /** An empty part for the file; with `identity`, a resumable one with its sidecar. */
  create(identity?: FileIdentity): Promise<Part>;
  /** The file `name` of this folder, as the receiver reports it saved. */
  saved(name: string): SavedFile;
}

/**
 * Where a resumable target stores its files: a native destination folder (`node:fs`) or one a
 * browser was given (File System Access). Translation only; what is kept, found, swept, named
 * and recorded is decided by `resumableTarget`.
 */
export interface PartStorage<Part extends StagedPart> {
  /** The folder the done screen names. */
  readonly folder: string;
  /** The folder file `path` (sanitized, relative, `/`-separated) lands in, created when missing. */
  place(path: string): Promise<PartFolder<Part>>;
  /** Milliseconds since the epoch, on the scale of the file times the sweep compares. */
  wallClock(): number;
  /** A newly landed file, before its receipt is written; where the platform marks downloads. */
  landed?(saved: SavedFile): Promise<void>;
}

type Staged<Part extends StagedPart> =
  | {
      kind: 'part';
      part: Part;
      place: PartFolder<Part>;
      fileSize: number | null;
      identity?: FileIdentity;
    }
  /** Already there whole from an earlier try, as `name`: committed as it is, never touched. */
  | { kind: 'complete'; place: PartFolder<Part>; name: string; identity: FileIdentity };

/**
 * The save target that resumes (docs/protocol.md, "Resume"), once for every runtime: each file
 * staged as a part, renamed once it checks out; what an earlier try from the same sender left of
 * it (a kept part, or the file already there whole, by its receipt) found and offered; each
 * folder swept of parts past PART_KEEP_MS once a batch; and a receipt written for each file that
 * may resume once it lands, without which it is never found complete.
 */
export function resumableTarget<Part extends StagedPart>(storage: PartStorage<Part>): SaveTarget {
  const open = new Map<number, Staged<Part>>();
  const swept = new Set<string>();
  const staged = (index: number): Staged<Part> => {
    const found = open.get(index);
    if (found === undefined) throw new Error(`file ${index + 1} is not open`);
    return found;
  };
  const part = (index: number): Part => {
    const found = staged(index);
    if (found.kind !== 'part') throw new Error(`file ${index + 1} is already complete`);
    return found.part;
  };
  return {
    folder: storage.folder,
    async open(index, path, fileSize) {
      const place = await storage.place(path);
      open.set(index, { kind: 'part', part: await place.create(), place, fileSize });
    },
    async resume(index, path, fileSize, senderFileId): Promise<ResumePoint> {
      const identity: FileIdentity = { name: path, size: fileSize, senderFileId };
      const place = await storage.place(path);
      if (!swept.has(place.key)) {
        swept.add(place.key);
        await sweepKeptParts(place.kept, storage.wallClock());
      }
      const kept = await findKeptFile(place.kept, place.name, identity);
      if (kept === undefined) {
        const created = await place.create(identity);
        open.set(index, { kind: 'part', part: created, place, fileSize, identity });
        return { offset: 0, blocks: [] };
      }
      open.set(
        index,
        kept.kind === 'part'
          ? { kind: 'part', part: kept.part, place, fileSize, identity }
          : { kind: 'complete', place, name: kept.name, identity },
      );
      return kept.point;
    },
    write: async (index, bytes) => part(index).write(bytes),
    recordBlock(index, block, digest) {
      const found = open.get(index);
      if (found?.kind === 'part') found.part.recordBlock(block, digest);
    },
    async restart(index) {
      const found = staged(index);
      if (found.kind === 'part') return found.part.restart();
      // The finished file did not match the sender's: it stays, and a new copy arrives beside it.
      const { place, identity } = found;
      const created = await place.create(identity);
      open.set(index, { kind: 'part', part: created, place, fileSize: identity.size, identity });
    },
    async commit(index): Promise<SavedFile> {
      const found = staged(index);
      open.delete(index);
      if (found.kind === 'complete') return found.place.saved(found.name);
      let name: string;
      try {
        name = await found.part.commit(found.fileSize);
      } catch (error) {
        await found.part.discard();
        throw error;
      }
      const saved = found.place.saved(name);
      await storage.landed?.(saved);
      // After the mark, which may touch the file: the receipt holds it as it now stays.
      if (found.identity !== undefined) await recordReceipt(found.place.kept, name, found.identity);
      return saved;
    },
    async discard(index, keep) {
      const found = open.get(index);
      open.delete(index);
      if (found?.kind === 'part') await found.part.discard(keep);
    },
  };
}
