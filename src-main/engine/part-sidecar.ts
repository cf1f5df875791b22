import { appendFile, lstat, readFile, writeFile } from 'node:fs/promises';
import {
  digestLine,
  readSidecar,
  sidecarMaxBytes,
  sidecarText,
  type FileIdentity,
} from '../../src-shared/verify/part-sidecar';
import { APPEND_EXISTING, READ_EXISTING, REPLACE_WHOLE } from './received-file-open';

export { SIDECAR_SUFFIX, type FileIdentity } from '../../src-shared/verify/part-sidecar';

/**
 * The sidecar beside a resumable `.part` on disk (format and reading: src-shared's
 * part-sidecar.ts, one for every receiver), appended block by block as blocks reach the disk.
 */
export class PartSidecar {
  readonly path: string;
  #blocks: number;
  #appending: Promise<void> = Promise.resolve();

  private constructor(path: string, blocks: number) {
    this.path = path;
    this.#blocks = blocks;
  }

  /**
   * The digests a sidecar at `path` records for `identity`, or undefined when there is none, it
   * is not a plain file, it is longer than such a sidecar can be, or it describes another file.
   */
  static async read(path: string, identity: FileIdentity): Promise<Uint8Array[] | undefined> {
    try {
      const info = await lstat(path);
      if (!info.isFile() || info.size > sidecarMaxBytes(identity)) return undefined;
      return readSidecar(await readFile(path, { encoding: 'utf8', flag: READ_EXISTING }), identity);
    } catch {
      return undefined;
    }
  }

  /** Writes the sidecar to list exactly `blocks` (none for a new `.part`). */
  static async write(
    path: string,
    identity: FileIdentity,
    blocks: readonly Uint8Array[] = [],
  ): Promise<PartSidecar> {
    await writeFile(path, sidecarText(identity, blocks), { flag: REPLACE_WHOLE });
    return new PartSidecar(path, blocks.length);
  }

  /**
   * Adds block `block`'s digest once `onDisk` settles (its bytes are then written). Blocks are
   * recorded in order only: a gap would make a later line describe the wrong block.
   */
  record(block: number, digest: Uint8Array, onDisk: Promise<void>): void {
    this.#appending = this.#appending
      .then(async () => {
        if (block !== this.#blocks) return;
        await onDisk;
        await appendFile(this.path, digestLine(digest), { flag: APPEND_EXISTING });
        this.#blocks += 1;
      })
      // A block that could not be recorded only costs a resume: it is checked again next time.
      .catch(() => undefined);
  }

  /** Every recorded block has been written out, or given up on. */
  settled(): Promise<void> {
    return this.#appending;
  }
}
