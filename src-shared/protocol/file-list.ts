import { encodeMessage } from './encode';
import { utf8ByteLength, type Frame, type Framing } from './frame';
import { CONTROL_FRAME_MAX_BYTES, LIST_MAX_FILES } from './limits';
import type { ListedFile } from './messages';

// The bytes of an empty list frame; `false` is the longer flag, so any frame measured with it fits.
const ENVELOPE_BYTES = utf8ByteLength(
  JSON.stringify({ type: 'ferry-list', files: [], more: false }),
);

/**
 * A batch's files as `ferry-list` frames (docs/protocol.md, "File list"): in order, as many to a
 * frame as fit within the 1000-byte control frame, the last one with `more: false`. At most
 * LIST_MAX_FILES are listed. A file whose entry would not fit a frame of its own (its metadata
 * would not fit either, so the batch stops there) ends the list before it.
 */
export function encodeFileList(files: readonly ListedFile[], framing: Framing = 'text'): Frame[] {
  const frames: Frame[] = [];
  let batch: ListedFile[] = [];
  let bytes = ENVELOPE_BYTES;
  const flush = (more: boolean): void => {
    frames.push(encodeMessage({ type: 'ferry-list', files: batch, more }, framing));
    batch = [];
    bytes = ENVELOPE_BYTES;
  };
  for (const { name, size } of files.slice(0, LIST_MAX_FILES)) {
    const entry = utf8ByteLength(JSON.stringify({ name, size }));
    // Each entry after the first in a frame costs its comma too.
    const cost = batch.length === 0 ? entry : entry + 1;
    if (bytes + cost <= CONTROL_FRAME_MAX_BYTES) {
      batch.push({ name, size });
      bytes += cost;
      continue;
    }
    if (ENVELOPE_BYTES + entry > CONTROL_FRAME_MAX_BYTES) break;
    flush(true);
    batch.push({ name, size });
    bytes += entry;
  }
  flush(false);
  return frames;
}
