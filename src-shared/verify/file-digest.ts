import { VERIFY_BLOCK_BYTES, VERIFY_BLOCKS_IN_FLIGHT } from '../protocol/limits';
import {
  fallbackIncrementalSha256,
  sha256,
  type BlockSha256,
  type IncrementalSha256,
  type IncrementalSha256Factory,
} from './hash-functions';

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The digest of a run of blocks: SHA-256 over their digests in order (docs/protocol.md,
 * "Verification"). Over all of a file's blocks it is the file's digest; over the first k it is
 * the prefix a resume offers.
 */
export async function digestOfBlocks(blocks: readonly Uint8Array[]): Promise<string> {
  const joined = new Uint8Array(blocks.length * 32);
  blocks.forEach((block, index) => joined.set(block, index * 32));
  return toHex(await sha256(joined));
}

/**
 * A file's content digest, built as its bytes go by in order: each full VERIFY_BLOCK_BYTES block
 * is hashed as soon as it is complete, the last (short) one on `finish`. One implementation for
 * every surface: the sender hashes what it reads, the receiver what arrives. Given an incremental
 * hash (Node) each block is hashed incrementally as its chunks go by; elsewhere it is gathered in
 * one reused buffer and handed whole to the runtime's hasher off this thread (a page without
 * WebCrypto: its workers), else to WebCrypto; with neither, incrementally in JavaScript.
 */
export class FileDigest {
  readonly #blocks: Promise<Uint8Array>[];
  readonly #onBlock: ((index: number, digest: Uint8Array) => void) | undefined;
  readonly #incremental: IncrementalSha256Factory | undefined;
  readonly #wholeBlocks: BlockSha256;
  /** The current block's incremental hash; undefined where whole blocks are hashed. */
  #hash: IncrementalSha256 | undefined;
  /** Reused for every block: a block hasher copies what it is given before it returns. */
  readonly #filling: Uint8Array;
  #filled = 0;
  #pending: Promise<Uint8Array>[] = [];
  /** Blocks are reported in order, whichever hashing thread finishes first. */
  #reported: Promise<void> = Promise.resolve();

  /**
   * `covered`: the digests of the blocks before the first byte this digest will see (a resumed
   * file starts on a block boundary). `onBlock` hears of each new full block, in order.
   * `incremental` or `offThread`: the runtime's own ways to hash (hash-functions.ts).
   */
  constructor(
    covered: readonly Uint8Array[] = [],
    onBlock?: (index: number, digest: Uint8Array) => void,
    incremental?: IncrementalSha256Factory,
    offThread?: BlockSha256,
  ) {
    this.#blocks = covered.map((block) => Promise.resolve(block));
    this.#onBlock = onBlock;
    this.#incremental =
      incremental ?? (offThread === undefined ? fallbackIncrementalSha256() : undefined);
    this.#wholeBlocks = offThread ?? sha256;
    this.#hash = this.#incremental?.();
    this.#filling = new Uint8Array(this.#incremental === undefined ? VERIFY_BLOCK_BYTES : 0);
  }

  /**
   * Takes the next bytes (copied, so the caller may reuse its buffer). Returns a promise when
   * enough blocks are hashing that the caller should wait for it before handing over more.
   */
  update(bytes: Uint8Array): Promise<void> | undefined {
    let taken = 0;
    while (taken < bytes.byteLength) {
      const count = Math.min(bytes.byteLength - taken, VERIFY_BLOCK_BYTES - this.#filled);
      if (this.#hash !== undefined) this.#hash.update(bytes.subarray(taken, taken + count));
      else this.#filling.set(bytes.subarray(taken, taken + count), this.#filled);
      this.#filled += count;
      taken += count;
      if (this.#filled === VERIFY_BLOCK_BYTES) this.#seal(true);
    }
    if (this.#pending.length < VERIFY_BLOCKS_IN_FLIGHT) return undefined;
    return Promise.all(this.#pending).then(() => undefined);
  }

  /** The digests of the blocks sealed so far: the full ones, and after `finish` the short last one. */
  async sealedBlocks(): Promise<Uint8Array[]> {
    return Promise.all(this.#blocks);
  }

  /** The file's digest, once every block (the last, short one included) is hashed. */
  async finish(): Promise<string> {
    if (this.#filled > 0 || this.#blocks.length === 0) this.#seal(false);
    return digestOfBlocks(await Promise.all(this.#blocks));
  }

  /**
   * Only full blocks are reported, and always after the current turn (the receiver hands a
   * chunk to its target after hashing it): a short one is the file's end, never a resume point.
   */
  #seal(full: boolean): void {
    const index = this.#blocks.length;
    const hash = this.#hash;
    const hashing = hash === undefined ? this.#hashFilling() : this.#nextHash(hash);
    this.#filled = 0;
    this.#blocks.push(hashing);
    const onBlock = this.#onBlock;
    if (onBlock !== undefined && full) {
      this.#reported = this.#reported.then(() => hashing).then((digest) => onBlock(index, digest));
    }
  }

  /** The block's digest from its incremental hash; the next block starts a new one. */
  #nextHash(hash: IncrementalSha256): Promise<Uint8Array> {
    this.#hash = this.#incremental?.();
    return Promise.resolve(new Uint8Array(hash.digest()));
  }

  /** The gathered block, hashed off this thread where the runtime can. */
  #hashFilling(): Promise<Uint8Array> {
    const hashing = this.#wholeBlocks(this.#filling.subarray(0, this.#filled));
    this.#pending.push(hashing);
    void hashing.then(() => {
      this.#pending = this.#pending.filter((pending) => pending !== hashing);
    });
    return hashing;
  }
}
