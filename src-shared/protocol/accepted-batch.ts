import { formatBytes } from '../format/format-bytes';
import { sanitizeRelativePath } from '../names/sanitize-path';
import type { IncomingMetadata } from './messages';

/** A file as its metadata announced it, once read and sanitized. */
export interface AnnouncedFile {
  index: number;
  id: string;
  /** Sanitized, relative and `/`-separated. */
  path: string;
  /** 0 when the sender announced no usable size. */
  fileSize: number;
  /** False when the sender announced no usable size, read as 0. */
  sizeAnnounced: boolean;
}

/**
 * The batch as its first metadata announced it, and the rule each later metadata is held to
 * (docs/protocol.md, "Per-file sequence", "Accepted batch"): files in order, the same `total`,
 * and announced sizes that never add up past the `totalBytes` it was accepted at. A file without
 * a usable size counts as 0, on every surface: any byte of it is then an overrun.
 */
export class AcceptedBatch {
  #total = 0;
  #totalBytes = 0;
  /** The sizes announced so far. */
  #claimed = 0;

  get total(): number {
    return this.#total;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Takes file `index`'s metadata into the batch, or says why it cannot be taken. */
  admit(index: number, metadata: IncomingMetadata): AnnouncedFile | string {
    if (metadata.index !== index + 1) {
      return `file ${metadata.index} of ${metadata.total} arrived where file ${index + 1} was expected`;
    }
    if (index > 0 && metadata.total !== this.#total) {
      return `file ${metadata.index} announces a batch of ${metadata.total} files, but ${this.#total} were accepted`;
    }
    // No usable size reads as 0 on every surface, so any byte is an overrun: the spec lets a
    // browser keep what arrives unchecked, which would let a sender fill its memory or disk.
    const fileSize = metadata.fileSize ?? 0;
    if (index === 0) {
      this.#total = metadata.total;
      // Older senders announce a single file's batch as 0 bytes.
      this.#totalBytes = metadata.totalBytes === 0 ? fileSize : metadata.totalBytes;
    }
    const accepted = this.#totalBytes;
    if (this.#claimed + fileSize > accepted) {
      const announces = `file ${index + 1} announces ${formatBytes(fileSize)}`;
      return index === 0
        ? `${announces}, more than the ${formatBytes(accepted)} of the whole batch`
        : `${announces}, which takes the batch past the ${formatBytes(accepted)} that were accepted`;
    }
    this.#claimed += fileSize;
    const path = sanitizeRelativePath(metadata.fileName);
    const sizeAnnounced = metadata.fileSize !== undefined;
    return { index, id: metadata.id, path, fileSize, sizeAnnounced };
  }
}
