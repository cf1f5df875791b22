import { hostname } from 'node:os';
import { senderFileId } from '../../src-shared/verify/sender-file-id';
import type { SendFile } from './send-list';

/**
 * The metadata `id` of a file this device sends (src-shared's senderFileId): the device's name,
 * the absolute path, the size and the modification time, so the same file sent again is known
 * for what an earlier try left of it (docs/protocol.md, "Resume").
 */
export function nativeSenderFileId(file: SendFile): Promise<string> {
  return senderFileId({
    device: hostname(),
    path: file.path,
    size: file.size,
    modified: file.mtimeMs,
  });
}
