import { DEFAULT_MAX_REPORT_BYTES } from '../signaling/limits';

/**
 * What a receiver tells the server's byte counter after a completed batch (docs/protocol.md,
 * "Byte-count report"): the bytes that travelled, but never more than the batch it accepted
 * (bytes sent again after a lost link travelled twice, yet arrived once) nor more than a server
 * takes in one report by default.
 */
export function reportedBytes(travelled: number, batchBytes: number): number {
  return Math.min(travelled, batchBytes, DEFAULT_MAX_REPORT_BYTES);
}
