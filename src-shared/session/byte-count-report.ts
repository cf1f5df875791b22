import { MAX_REPORTED_BATCH_BYTES } from '../signaling/limits';

/**
 * What a receiver tells the server's byte counter after a completed batch (docs/protocol.md,
 * "Byte-count report"): the bytes that travelled, but never more than the batch it accepted
 * (bytes sent again after a lost link travelled twice, yet arrived once) nor more than one report
 * stands for.
 */
export function reportedBytes(travelled: number, batchBytes: number): number {
  return Math.min(travelled, batchBytes, MAX_REPORTED_BATCH_BYTES);
}
