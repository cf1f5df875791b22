import type { DeliveredFileView } from '../../src-shared/transfer/transfer-view';
import { deliveredFileNotes } from '../../src-shared/transfer/delivered-file-notes';

/**
 * One line per delivered file that has something to say (src-shared's notes: verified, how much
 * was already there). `all` lists every file: the receiver's summary names each one.
 */
export function deliveredFileLines(files: readonly DeliveredFileView[], all = false): string[] {
  return files.flatMap((file) => {
    const notes = deliveredFileNotes(file);
    if (notes.length === 0 && !all) return [];
    return [`  ${file.name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`];
  });
}
