// What a page without WebCrypto and its hash workers say to each other (hash-worker-pool.ts).

/** Page to worker: one whole block to hash, its buffer handed over. */
export interface HashRequest {
  id: number;
  block: Uint8Array;
}

/** Worker to page: the block's SHA-256, or why it could not be hashed. */
export type HashAnswer = { id: number; digest: Uint8Array } | { id: number; error: string };
