import { LANE_OUTSTANDING_MAX_BYTES, LANE_WINDOW_BYTES } from '../session-limits';

/** What the receiver last reported (`ferry-lane-ack`): frames delivered, bytes arrived per lane. */
export interface LaneAck {
  next: number;
  received: readonly number[];
}

/**
 * The sender's side of striping (docs/protocol.md, "Lanes"): which lane the next frame takes, and
 * whether another may go at all. A lane's outstanding bytes (sent, not yet reported arrived)
 * measure how far behind it is, whatever holds them — its send queue, SCTP's buffer or the path —
 * so a lane whose congestion window has just halved gets fewer frames instead of holding up the
 * rest. The window over all lanes, from the oldest frame the receiver has not yet handed on,
 * bounds what the receiver must hold out of order.
 */
export class LaneSchedule {
  readonly #lanes: number;
  readonly #sent: number[];
  #received: readonly number[];
  /** Cumulative bytes sent before each frame not yet delivered, oldest first. */
  readonly #starts: number[] = [];
  #firstUndelivered = 0;
  #nextSeq = 0;
  #sentTotal = 0;
  #rotation = 0;

  constructor(lanes: number) {
    this.#lanes = lanes;
    this.#sent = new Array<number>(lanes).fill(0);
    this.#received = new Array<number>(lanes).fill(0);
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
    this.#starts.splice(0, next - this.#firstUndelivered);
    this.#firstUndelivered = next;
    this.#received = [...received];
    return true;
  }

  #undeliveredBytes(): number {
    return this.#sentTotal - (this.#starts[0] ?? this.#sentTotal);
  }

  /** The lane with the most room under its cap; ties go round, so idle lanes all get used. */
  #roomiest(): { lane: number; room: number } {
    let best = { lane: this.#rotation, room: Number.NEGATIVE_INFINITY };
    for (let step = 0; step < this.#lanes; step += 1) {
      const lane = (this.#rotation + step) % this.#lanes;
      const room = LANE_OUTSTANDING_MAX_BYTES - (this.#sent[lane] - (this.#received[lane] ?? 0));
      if (room > best.room) best = { lane, room };
    }
    return best;
  }
}
