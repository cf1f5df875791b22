import { formatBytes } from '../../src-shared/format/format-bytes';
import type { DeliveredFileView } from '../../src-shared/transfer/transfer-view';

/**
 * One line per delivered file that has something to say: whether its digest was checked, and
 * how much of it was already there from an earlier try. `all` lists every file (the receiver's
 * summary names where each landed); otherwise only files with a note are listed.
 */
export function deliveredFileLines(files: readonly DeliveredFileView[], all = false): string[] {
  const lines: string[] = [];
  for (const file of files) {
    const notes: string[] = [];
    if (file.verified === true) notes.push('verified');
    if (file.verified === false) notes.push('not verified');
    const resumed = file.resumedBytes ?? 0;
    if (resumed > 0 && resumed === file.size) notes.push('already there, nothing sent');
    else if (resumed > 0) notes.push(`${formatBytes(resumed)} was already there`);
    if (notes.length > 0 || all) {
      lines.push(`  ${file.name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`);
    }
  }
  return lines;
}
