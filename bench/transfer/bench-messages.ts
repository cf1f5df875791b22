// What the two peer processes of a run tell the bench, over the child-process IPC channel.
// Times are wall-clock milliseconds (performance.timeOrigin + performance.now()), comparable
// across the processes of one machine.

export type PeerReport =
  /** Negotiation payloads, relayed by the bench between the two bare peers. */
  | { type: 'signal'; payload: unknown }
  /** The sender's code (engine runs): the bench starts the receiver with it. */
  | { type: 'code'; code: string }
  /** The data channel is open: the clock starts. */
  | { type: 'open'; at: number }
  /** An engine peer's transfer began moving file data (the offer was accepted). */
  | { type: 'transferring'; at: number }
  /**
   * The receiver has every byte (bare) or every file committed (engine): the clock stops. An
   * engine receiver adds whether every file was verified end to end, and how many bytes it
   * already had from an earlier try (`bytes` counts only those that travelled). A receiver with
   * a time limit reports what it had when the time was up (`verified` false), `at` being the
   * moment that byte count was current.
   */
  | { type: 'received'; at: number; bytes: number; verified?: boolean; resumedBytes?: number }
  /**
   * A time-limited engine receiver's byte count halfway through its limit, and the moment that
   * count was current.
   */
  | { type: 'midway'; at: number; bytes: number }
  /** An engine receiver told to cancel midway did so with `bytesDone` on its disk. */
  | { type: 'cut'; bytesDone: number }
  | { type: 'failed'; message: string }
  /** Last words: peak resident set size in bytes, and CPU time (all threads) in seconds. */
  | { type: 'finished'; peakRssBytes: number; cpuSeconds: number };

export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** The `finished` report: what this process cost, native threads included. */
export function finishedReport(): PeerReport {
  const usage = process.resourceUsage();
  return {
    type: 'finished',
    peakRssBytes: usage.maxRSS * 1024,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
  };
}

/** Sends a report to the bench; a child without IPC (run by hand) prints it instead. */
export function report(message: PeerReport): void {
  if (process.send) process.send(message);
  else console.log(JSON.stringify(message));
}
