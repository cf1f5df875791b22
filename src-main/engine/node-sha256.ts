import { createHash } from 'node:crypto';
import type { IncrementalSha256 } from '../../src-shared/verify/hash-functions';

/** Node's incremental SHA-256 for the shared FileDigest: each chunk hashed where it lies. */
export function nodeSha256(): IncrementalSha256 {
  return createHash('sha256');
}
