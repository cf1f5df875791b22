import { formatBytes } from '../format/format-bytes';
import type { DeliveredFileView } from './transfer-view';

/**
 * What every surface says of one delivered file beside its name: whether its content digest was
 * checked end to end, and how much of it was already there from an earlier try
 * (docs/protocol.md, "Verification", "Resume"). Empty when there is nothing to say.
 */
export function deliveredFileNotes(file: DeliveredFileView): string[] {
  const notes: string[] = [];
  if (file.verified === true) notes.push('verified');
  if (file.verified === false) notes.push('not verified');
  const resumed = file.resumedBytes ?? 0;
  if (resumed > 0 && resumed === file.size) notes.push('already there, nothing sent');
  else if (resumed > 0) notes.push(`${formatBytes(resumed)} was already there`);
  return notes;
}

/** The done screen's heading: "Delivered and verified" once every file's digest was checked. */
export function doneHeading(direction: 'send' | 'receive', verified: boolean | undefined): string {
  const done = direction === 'send' ? 'Delivered' : 'Received';
  return verified === true ? `${done} and verified` : done;
}
