/** A report's `bytes` is a positive integer no larger than the server's cap; nothing else counts. */
export function isReportableByteCount(value: unknown, maxReportBytes: number): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= maxReportBytes
  );
}
