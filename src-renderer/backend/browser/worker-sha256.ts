import type { BlockSha256 } from '../../../src-shared/verify/hash-functions';
import { workerPoolSha256 } from './hash-worker-pool';
import HashWorker from './hash-worker?worker';

let pagePool: BlockSha256 | undefined;

/**
 * What a page adds to its sessions' config: where it has no WebCrypto (plain http), its block
 * hasher, the worker pool, made on first use; nothing where WebCrypto already hashes off the
 * page's thread (docs/architecture.md, "Hashing").
 */
export function pageHashing(): { blockSha256?: BlockSha256 } {
  if (globalThis.crypto.subtle !== undefined || typeof Worker !== 'function') return {};
  pagePool ??= workerPoolSha256(() => new HashWorker(), navigator.hardwareConcurrency || 1);
  return { blockSha256: pagePool };
}
