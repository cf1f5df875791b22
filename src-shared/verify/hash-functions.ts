import { hmac } from '@noble/hashes/hmac';
import { sha256 as jsSha256 } from '@noble/hashes/sha2';

// SHA-256 and HMAC-SHA256 for every runtime (docs/architecture.md, "Hashing"): WebCrypto where
// the runtime has it (Node, Electron, a page on https or localhost), which hashes off the calling
// thread; @noble/hashes where it does not. Browsers withhold `crypto.subtle` from a page that is
// not a secure context, such as the LAN room opened over plain http on a phone, and that page
// must verify, list its files and prove the secret link all the same (docs/protocol.md,
// "Capabilities"). Both give the same bytes: the same function.

/** The part of WebCrypto used here; the shared code is compiled without DOM or Node types. */
interface WebCrypto {
  subtle?: {
    digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
    importKey(
      format: 'raw',
      key: Uint8Array,
      algorithm: { name: 'HMAC'; hash: 'SHA-256' },
      extractable: false,
      usages: ['sign'],
    ): Promise<unknown>;
    sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  };
}

/** Looked up on every call: a page's `crypto` is what it is, but a test may hide it. */
function webCrypto(): NonNullable<WebCrypto['subtle']> | undefined {
  return (globalThis as { crypto?: WebCrypto }).crypto?.subtle;
}

/** SHA-256 of `bytes`: WebCrypto, off the calling thread where the runtime can; else JavaScript. */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  const subtle = webCrypto();
  if (subtle === undefined) return jsSha256(bytes);
  return new Uint8Array(await subtle.digest('SHA-256', bytes));
}

/** HMAC-SHA256 of `data` keyed with `key`. */
export async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const subtle = webCrypto();
  if (subtle === undefined) return hmac(jsSha256, key, data);
  const imported = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await subtle.sign('HMAC', imported, data));
}

/**
 * HMAC-SHA256 computed at once, in JavaScript, for a short input whose result a synchronous step
 * needs: the pair secret, derived as a finished transfer's done view is published
 * (docs/protocol.md, "Pair rooms"). The same bytes as `hmacSha256`.
 */
export function hmacSha256Now(key: Uint8Array, data: Uint8Array): Uint8Array {
  return hmac(jsSha256, key, data);
}

/** An incremental SHA-256 (Node's `crypto.createHash('sha256')`, noble's `sha256.create()`). */
export interface IncrementalSha256 {
  update(bytes: Uint8Array): unknown;
  digest(): Uint8Array;
}

/**
 * A runtime's incremental SHA-256, where it has one: the native adapters pass Node's. Node's
 * WebCrypto copies each 4 MiB block into a new allocation on the calling thread before hashing it
 * on its pool, which costs a small machine about as much CPU as the hashing itself (measured with
 * bench:transfer); an incremental hash takes each chunk where it lies, with neither that copy nor
 * a block buffer, at about 0.5 s of one core per GiB. A browser on a secure origin has none and
 * uses WebCrypto; a page without WebCrypto uses `fallbackIncrementalSha256`.
 */
export type IncrementalSha256Factory = () => IncrementalSha256;

/**
 * SHA-256 of one whole block, off the calling thread: a page without WebCrypto passes its hash
 * workers' (src-renderer/backend/browser/hash-worker-pool.ts). It must copy or hand off `block`
 * before it returns: the caller reuses that buffer for the next block.
 */
export type BlockSha256 = (block: Uint8Array) => Promise<Uint8Array>;

/**
 * The incremental SHA-256 a runtime without WebCrypto hashes file blocks with: it takes each
 * chunk where it lies, so a page needs no 4 MiB block buffer. Undefined where WebCrypto exists,
 * which hashes whole blocks off the page's thread instead.
 */
export function fallbackIncrementalSha256(): IncrementalSha256Factory | undefined {
  return webCrypto() === undefined ? () => jsSha256.create() : undefined;
}
