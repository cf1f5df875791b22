import {
  LANE_OUTSTANDING_FLOOR_BYTES,
  LANE_OUTSTANDING_MAX_BYTES,
  LANE_OUTSTANDING_START_BYTES,
  LANE_QUEUE_MS,
  LANE_RATE_INTERVAL_MS,
  LANE_WINDOW_BYTES,
} from '../session-limits';

/** Weight of the newest rate sample: each spans LANE_RATE_INTERVAL_MS, so half is enough. */
const RATE_SMOOTHING = 0.5;

/** What the receiver last reported (`ferry-lane-ack`): frames delivered, bytes arrived per lane. */
export interface LaneAck {
  next: number;
  received: readonly number[];
}

/**
 * The sender's side of striping (docs/protocol.md, "Lanes"): which lane the next frame takes, and
 * whether another may go at all. A lane's outstanding bytes (sent, not yet reported arrived)
 * measure how far behind it is, whatever holds them — its send queue, SCTP's buffer or the path.
 * Each lane may have what it delivers in LANE_QUEUE_MS outstanding, at its own measured rate, so
 * a lane whose congestion window has just halved, or that waits on a retransmission, is given
 * fewer frames instead of holding up the rest; a lane with nothing outstanding always takes one.
 * Rates are measured over LANE_RATE_INTERVAL_MS, not per report: a lane hands on a whole frame at
 * once, so a report a few milliseconds after the last one reads 0 or a burst. A lane that ran dry
 * during an interval was held back by its allowance, not its path, so its rate may only rise:
 * measured as a fall, it would be given less again and stay starved.
 * The window over all lanes, from the oldest frame the receiver has not yet handed on, bounds what
 * the receiver must hold out of order.
 */
export class LaneSchedule {
  readonly #lanes: number;
  readonly #now: () => number;
  readonly #sent: number[];
  #received: readonly number[];
  /** Bytes per millisecond each lane delivered lately; undefined before its first measurement. */
  readonly #rates: (number | undefined)[];
  /** The current measuring interval: when it began, what each lane had delivered by then. */
  #intervalFrom: { at: number; received: readonly number[] };
  /** Per lane: it had nothing outstanding at some point of the current interval. */
  readonly #ranDry: boolean[];
  /** Per lane: its channel is open at this end, so it may take frames. The first always is. */
  readonly #open: boolean[];
  /** Cumulative bytes sent before each frame not yet delivered, oldest first. */
  readonly #starts: number[] = [];
  #firstUndelivered = 0;
  #nextSeq = 0;
  #sentTotal = 0;
  #rotation = 0;

  constructor(lanes: number, now: () => number) {
    this.#lanes = lanes;
    this.#now = now;
    this.#sent = new Array<number>(lanes).fill(0);
    this.#received = new Array<number>(lanes).fill(0);
    this.#rates = new Array<number | undefined>(lanes).fill(undefined);
    this.#intervalFrom = { at: now(), received: this.#received };
    this.#ranDry = new Array<boolean>(lanes).fill(false);
    this.#open = new Array<boolean>(lanes).fill(false);
    this.#open[0] = true;
  }

  /** Lane `lane` opened: from now on it takes frames like the others. */
  open(lane: number): void {
    if (lane > 0 && lane < this.#lanes) this.#open[lane] = true;
  }

  /** True while no lane has room or the window is full: the session should wait. */
  get blocked(): boolean {
    return this.#undeliveredBytes() >= LANE_WINDOW_BYTES || this.#roomiest().room <= 0;
  }

  /**
   * The lane and sequence number for a frame of `bytes`. A frame is always placed, even when
   * blocked: control frames do not wait for the window, and the limits are soft by one frame.
   */
  place(bytes: number): { lane: number; seq: number } {
    const { lane } = this.#roomiest();
    this.#rotation = (lane + 1) % this.#lanes;
    if (this.#outstanding(lane) === 0) this.#ranDry[lane] = true;
    this.#sent[lane] += bytes;
    this.#starts.push(this.#sentTotal);
    this.#sentTotal += bytes;
    const seq = this.#nextSeq;
    this.#nextSeq += 1;
    return { lane, seq };
  }

  /** Takes the receiver's report; false when it cannot be true (it is then ignored). */
  acknowledge(ack: LaneAck): boolean {
    const { next, received } = ack;
    const possible =
      received.length === this.#lanes &&
      next >= this.#firstUndelivered &&
      next <= this.#nextSeq &&
      received.every(
        (bytes, lane) => bytes >= (this.#received[lane] ?? 0) && bytes <= this.#sent[lane],
      );
    if (!possible) return false;
    this.#measure(received);
    this.#starts.splice(0, next - this.#firstUndelivered);
    this.#firstUndelivered = next;
    this.#received = [...received];
    return true;
  }

  /** Each lane's rate over the interval, once LANE_RATE_INTERVAL_MS have passed. */
  #measure(received: readonly number[]): void {
    received.forEach((bytes, lane) => {
      if (bytes === this.#sent[lane]) this.#ranDry[lane] = true;
    });
    const now = this.#now();
    const elapsed = now - this.#intervalFrom.at;
    if (elapsed < LANE_RATE_INTERVAL_MS) return;
    received.forEach((bytes, lane) => {
      const sample = (bytes - (this.#intervalFrom.received[lane] ?? 0)) / elapsed;
      const rate = this.#rates[lane];
      if (this.#ranDry[lane]) {
        // Held back by its allowance: the sample is only a floor on what the path can do.
        if (rate !== undefined) this.#rates[lane] = Math.max(rate, sample);
      } else {
        this.#rates[lane] = rate === undefined ? sample : rate + RATE_SMOOTHING * (sample - rate);
      }
    });
    this.#intervalFrom = { at: now, received: [...received] };
    this.#ranDry.fill(false);
  }

  #outstanding(lane: number): number {
    return this.#sent[lane] - (this.#received[lane] ?? 0);
  }

  #undeliveredBytes(): number {
    return this.#sentTotal - (this.#starts[0] ?? this.#sentTotal);
  }

  #room(lane: number): number {
    const outstanding = this.#outstanding(lane);
    // A lane with little on its way always takes a frame, however slow it was measured: given
    // one frame at a time it could never be measured faster, nor ever have the most room.
    if (outstanding < LANE_OUTSTANDING_FLOOR_BYTES) return Number.POSITIVE_INFINITY;
    const rate = this.#rates[lane];
    const allowance =
      rate === undefined
        ? LANE_OUTSTANDING_START_BYTES
        : Math.min(rate * LANE_QUEUE_MS, LANE_OUTSTANDING_MAX_BYTES);
    return allowance - outstanding;
  }

  /** The open lane with the most room; ties go round, so idle lanes all get used. */
  #roomiest(): { lane: number; room: number } {
    let best = { lane: 0, room: Number.NEGATIVE_INFINITY };
    for (let step = 0; step < this.#lanes; step += 1) {
      const lane = (this.#rotation + step) % this.#lanes;
      if (this.#open[lane] !== true) continue;
      const room = this.#room(lane);
      if (room > best.room) best = { lane, room };
    }
    return best;
  }
}
