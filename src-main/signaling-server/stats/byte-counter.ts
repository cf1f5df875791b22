/** The one cumulative, anonymous, all-time count of bytes that receivers report. */
export interface ByteCounter {
  /** The total as this server last knew it, answered from memory. */
  readonly total: number;
  /** Adds a report and returns the new total. */
  add(bytes: number): Promise<number>;
}
