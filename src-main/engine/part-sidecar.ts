import { appendFile, lstat, readFile, writeFile } from 'node:fs/promises';
import * as v from 'valibot';
import { VERIFY_BLOCK_BYTES, VERIFY_DIGEST_PATTERN } from '../../src-shared/protocol/limits';
import { toHex } from '../../src-shared/verify/file-digest';

/** The sidecar of `<name>.part`, beside it (docs/protocol.md, "Resume"). */
export const SIDECAR_SUFFIX = '.ferry';

/** Bytes of one digest line; a sidecar is never read past what its file's blocks could need. */
const LINE_BYTES = 65;
const HEADER_MAX_BYTES = 4096;

/** Who sent the file, as the sender described it: what a later try must match to resume. */
export interface FileIdentity {
  /** The sanitized relative path it is saved under, `/`-separated. */
  name: string;
  size: number;
  /** The metadata `id`, which a Ferry sender derives from the file's path, size and mtime. */
  senderFileId: string;
}

const HEADER = v.object({
  ferry: v.literal('part-sidecar'),
  v: v.literal(1),
  name: v.string(),
  size: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  id: v.string(),
  block: v.literal(VERIFY_BLOCK_BYTES),
});

/**
 * A small file beside each resumable `.part`: a first line naming the file's identity, then one
 * line per full block on disk with its SHA-256 in hex, appended as blocks reach the disk. Nothing
 * in it is trusted: it is read with a schema, must name the same identity, and its digests only
 * say which blocks to check again before anything is offered for resume.
 */
export class PartSidecar {
  readonly path: string;
  #blocks: number;
  #appending: Promise<void> = Promise.resolve();

  private constructor(path: string, blocks: number) {
    this.path = path;
    this.#blocks = blocks;
  }

  /** Starts a sidecar for a new, empty `.part`. */
  static async create(path: string, identity: FileIdentity): Promise<PartSidecar> {
    await writeFile(path, header(identity), { flag: 'w' });
    return new PartSidecar(path, 0);
  }

  /**
   * The digests a sidecar at `path` records for `identity`, or undefined when there is none, it
   * is not a plain file, it cannot be read, or it describes another file.
   */
  static async read(path: string, identity: FileIdentity): Promise<Uint8Array[] | undefined> {
    try {
      const info = await lstat(path);
      const blocks = Math.floor(identity.size / VERIFY_BLOCK_BYTES);
      if (!info.isFile() || info.size > HEADER_MAX_BYTES + blocks * LINE_BYTES) return undefined;
      const [first, ...lines] = (await readFile(path, 'utf8')).split('\n');
      let parsed: unknown;
      try {
        parsed = JSON.parse(first);
      } catch {
        return undefined;
      }
      const read = v.safeParse(HEADER, parsed);
      if (!read.success) return undefined;
      const { name, size, id } = read.output;
      if (name !== identity.name || size !== identity.size || id !== identity.senderFileId) {
        return undefined;
      }
      const digests: Uint8Array[] = [];
      // A line cut short by a crash ends the list; so does anything that is not a digest.
      for (const line of lines.slice(0, blocks)) {
        if (!VERIFY_DIGEST_PATTERN.test(line)) break;
        digests.push(fromHex(line));
      }
      return digests;
    } catch {
      return undefined;
    }
  }

  /** Rewrites the sidecar to list exactly `blocks`, the ones checked on disk. */
  static async rewrite(
    path: string,
    identity: FileIdentity,
    blocks: readonly Uint8Array[],
  ): Promise<PartSidecar> {
    const lines = blocks.map((block) => `${toHex(block)}\n`).join('');
    await writeFile(path, header(identity) + lines, { flag: 'w' });
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
        await appendFile(this.path, `${toHex(digest)}\n`);
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

function header(identity: FileIdentity): string {
  const { name, size, senderFileId } = identity;
  const line = {
    ferry: 'part-sidecar',
    v: 1,
    name,
    size,
    id: senderFileId,
    block: VERIFY_BLOCK_BYTES,
  };
  return `${JSON.stringify(line)}\n`;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
