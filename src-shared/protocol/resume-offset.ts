import { VERIFY_BLOCK_BYTES } from './limits';

/**
 * A resume starts on a block boundary, or at the file's end (docs/protocol.md, "Resume"): the
 * prefix digest both sides compare is made of whole blocks.
 */
export function onBlockBoundary(offset: number, fileSize: number): boolean {
  return offset % VERIFY_BLOCK_BYTES === 0 || offset === fileSize;
}

/** Whether what the receiver kept of a file can be offered: anything it cannot vouch for is not. */
export function offerableOffset(offset: number, prefix: string | undefined, fileSize: number) {
  return (
    prefix !== undefined &&
    Number.isSafeInteger(offset) &&
    offset > 0 &&
    offset <= fileSize &&
    onBlockBoundary(offset, fileSize)
  );
}

/**
 * Failures that say nothing against what arrived so far: the link went, or a person stopped. A
 * resumable file keeps its `.part` then, for the next try (docs/protocol.md, "Resume").
 */
const KEEPS_WHAT_ARRIVED: ReadonlySet<string> = new Set([
  'ERR_PEER_CLOSED',
  'ERR_PEER_CANCELLED',
  'ERR_CANCELLED',
  'ERR_STALLED',
]);

export function keepsWhatArrived(code: string): boolean {
  return KEEPS_WHAT_ARRIVED.has(code);
}
