import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { SendFile } from './send-list';

/**
 * The metadata `id` of a file this device sends: the same for the same file (absolute path, size,
 * modification time) from the same device, and new when any of them changes, so a receiver can
 * tell that a kept `.part` came from this very file (docs/protocol.md, "Resume"). A hash, so the
 * path itself is not told; 128 bits in base64url.
 */
export function senderFileId(file: SendFile): string {
  return createHash('sha256')
    .update(JSON.stringify(['ferry-file', hostname(), file.path, file.size, file.mtimeMs]))
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
