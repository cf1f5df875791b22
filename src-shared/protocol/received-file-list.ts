import { formatBytes } from '../format/format-bytes';
import { sanitizeRelativePath } from '../names/sanitize-path';
import { LIST_MAX_FILES } from './limits';
import type { ListMessage } from './messages';
import type { ListedEntry } from './receiver-types';

/**
 * The sender's file list as the receiver takes it (docs/protocol.md, "File list"): asked for
 * before the person decides, checked against the batch its first metadata announced, and then
 * the rule each later metadata is held to. Every method returns why the batch is refused, if it is.
 */
export class ReceivedFileList {
  /** The list as it arrives, then the list the person was shown. */
  #listing: ListedEntry[] = [];
  #listed: readonly ListedEntry[] = [];
  /** Complete, overdue, or never asked for. */
  #done = true;

  /** The first metadata is in: wait for the list when it was asked for. */
  expect(asked: boolean): void {
    this.#done = !asked;
  }

  get done(): boolean {
    return this.#done;
  }

  /** One part of the list; the batch announced `total` files. */
  take(message: ListMessage, total: number): string | undefined {
    for (const file of message.files) {
      if (this.#listing.length >= Math.min(total, LIST_MAX_FILES)) {
        return `the file list names more files than the ${total} announced`;
      }
      this.#listing.push({ path: sanitizeRelativePath(file.name), size: file.size });
    }
    if (!message.more) this.#done = true;
    return undefined;
  }

  /** The wait is over: the person is asked with what list there is. */
  close(): void {
    this.#done = true;
  }

  /** What arrived becomes the list the batch is held to, if it fits the batch's `totalBytes`. */
  settle(totalBytes: number): string | undefined {
    const sum = this.#listing.reduce((bytes, file) => bytes + file.size, 0);
    if (sum > totalBytes) {
      return `the file list adds up to ${formatBytes(sum)}, more than the ${formatBytes(totalBytes)} of the whole batch`;
    }
    this.#listed = this.#listing;
    return undefined;
  }

  /** The files listed, for the person to read; none when the sender listed none. */
  get entries(): ListedEntry[] {
    return [...this.#listed];
  }

  /** File `index` must be the one the person was shown, when the list named it. */
  unlike(index: number, path: string, fileSize: number | undefined): string | undefined {
    const listed = this.#listed[index];
    if (listed === undefined || (listed.path === path && listed.size === fileSize)) {
      return undefined;
    }
    const size = fileSize === undefined ? 'no size' : formatBytes(fileSize);
    return `file ${index + 1} is announced as "${path}" (${size}), but the list the transfer was accepted on names "${listed.path}" (${formatBytes(listed.size)})`;
  }
}
