/**
 * What the session reads as the send buffer of a sender whose lanes hold `queued` bytes each: their
 * mean, rounded up, so 0 still means every lane is empty. The session's high and low water are one
 * channel's, and the schedule already bounds what each lane holds. Against the sum, the session
 * paused whenever the fastest lanes' queues filled it, and lanes with little queued ran dry in the
 * meantime (docs/performance.md, "Lanes that ran dry").
 */
export function laneBufferLevel(queued: readonly number[]): number {
  const total = queued.reduce((sum, bytes) => sum + bytes, 0);
  return queued.length === 0 ? 0 : Math.ceil(total / queued.length);
}
