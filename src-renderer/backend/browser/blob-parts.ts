import { BLOB_PART_BYTES } from '../../../src-shared/protocol/limits';

/**
 * A download built into a Blob as its bytes arrive, never one growing buffer: chunks are folded
 * into a Blob part every BLOB_PART_BYTES, which the browser may move out of the tab and spill to
 * disk (docs/architecture.md, "Saving in a browser"), so the tab holds at most one part's chunks.
 */
export class BlobParts {
  readonly #parts: Blob[] = [];
  #chunks: Uint8Array<ArrayBuffer>[] = [];
  #pending = 0;

  write(bytes: Uint8Array): void {
    this.#chunks.push(bytes as Uint8Array<ArrayBuffer>);
    this.#pending += bytes.byteLength;
    if (this.#pending >= BLOB_PART_BYTES) this.#fold();
  }

  /** Every byte written, as one Blob made of the parts (no copy of their bytes). */
  blob(): Blob {
    this.#fold();
    return new Blob(this.#parts);
  }

  #fold(): void {
    if (this.#chunks.length === 0) return;
    this.#parts.push(new Blob(this.#chunks));
    this.#chunks = [];
    this.#pending = 0;
  }
}
