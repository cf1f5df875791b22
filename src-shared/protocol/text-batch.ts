import { TEXT_MESSAGE_FILE_NAME, TEXT_MESSAGE_MAX_BYTES } from './limits';

/**
 * Whether the batch is a text message the receiver shows instead of saving (docs/protocol.md,
 * "Text messages"): `offered` (both named `text` and the sender said so), and it is one
 * `message.txt` of an announced size within the limit. Anything else is saved as the files it is.
 */
export function isTextBatch(
  offered: boolean,
  total: number,
  file: { index: number; path: string; fileSize: number; sizeAnnounced: boolean },
): boolean {
  return (
    offered &&
    total === 1 &&
    file.index === 0 &&
    file.path === TEXT_MESSAGE_FILE_NAME &&
    file.sizeAnnounced &&
    file.fileSize <= TEXT_MESSAGE_MAX_BYTES
  );
}
