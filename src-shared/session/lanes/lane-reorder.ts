import { frameByteLength, type Frame } from '../../protocol/frame';
import { LANE_ACK_BYTES, LANE_REORDER_MAX_BYTES, LANE_SEQ_AHEAD_MAX } from '../session-limits';
import type { LaneAck } from './lane-schedule';

/** A sequence marker: the 4-byte big-endian number of the frame that follows it on its lane. */
export const LANE_MARKER_BYTES = 4;

export function laneMarker(seq: number): Uint8Array {
  const marker = new Uint8Array(LANE_MARKER_BYTES);
  new DataView(marker.buffer).setUint32(0, seq);
  return marker;
}

export interface ReorderHandlers {
  /** The next frame in the sender's order. */
  deliver(frame: Frame): void;
  /** A report for the sender is due. */
  acknowledge(ack: LaneAck): void;
  /** The sender broke the rules; why. */
  violation(reason: string): void;
}

/**
 * The receiver's side of striping (docs/protocol.md, "Lanes"): on every lane a marker, then the
 * frame it numbers; frames are handed on strictly by number, and the sender hears how far that
 * got and how much arrived on each lane.
 */
export class LaneReorder {
  readonly #handlers: ReorderHandlers;
  /** Per lane: the number its last marker announced, until its frame arrives. */
  readonly #pending: (number | undefined)[];
  readonly #received: number[];
  readonly #held = new Map<number, Frame>();
  #heldBytes = 0;
  #next = 0;
  /** Bytes that arrived, and bytes handed on, since the last report. */
  #arrived = 0;
  #delivered = 0;
  #failed = false;

  constructor(lanes: number, handlers: ReorderHandlers) {
    this.#handlers = handlers;
    this.#pending = new Array<number | undefined>(lanes).fill(undefined);
    this.#received = new Array<number>(lanes).fill(0);
  }

  /** Frames held for their turn. */
  get waiting(): number {
    return this.#held.size;
  }

  take(lane: number, frame: Frame): void {
    if (this.#failed) return;
    const seq = this.#pending[lane];
    if (seq === undefined) {
      this.#readMarker(lane, frame);
      return;
    }
    this.#pending[lane] = undefined;
    const bytes = frameByteLength(frame);
    this.#received[lane] += bytes;
    this.#arrived += bytes;
    this.#held.set(seq, frame);
    this.#heldBytes += bytes;
    if (this.#heldBytes > LANE_REORDER_MAX_BYTES) {
      this.#fail(`the sender ran more than ${LANE_REORDER_MAX_BYTES} bytes ahead of its order`);
      return;
    }
    this.#drain();
  }

  #readMarker(lane: number, frame: Frame): void {
    if (frame.kind !== 'binary' || frame.bytes.byteLength !== LANE_MARKER_BYTES) {
      this.#fail(`lane ${lane} sent a frame where its sequence marker belongs`);
      return;
    }
    const { buffer, byteOffset } = frame.bytes;
    const seq = new DataView(buffer, byteOffset, LANE_MARKER_BYTES).getUint32(0);
    if (seq < this.#next || seq >= this.#next + LANE_SEQ_AHEAD_MAX || this.#held.has(seq)) {
      this.#fail(`lane ${lane} numbered a frame ${seq} while ${this.#next} was due`);
      return;
    }
    this.#pending[lane] = seq;
  }

  #drain(): void {
    for (;;) {
      const frame = this.#held.get(this.#next);
      if (frame === undefined) break;
      this.#held.delete(this.#next);
      const bytes = frameByteLength(frame);
      this.#heldBytes -= bytes;
      this.#delivered += bytes;
      this.#next += 1;
      this.#handlers.deliver(frame);
      if (this.#failed) return;
    }
    // The sender learns how far the order got and which lanes are behind once per LANE_ACK_BYTES
    // arrived or handed on: whichever of its two limits holds it back, what it is waiting for
    // is at least that much, so a report always comes.
    if (this.#arrived >= LANE_ACK_BYTES || this.#delivered >= LANE_ACK_BYTES) {
      this.#arrived = 0;
      this.#delivered = 0;
      this.#handlers.acknowledge({ next: this.#next, received: [...this.#received] });
    }
  }

  #fail(reason: string): void {
    this.#failed = true;
    this.#handlers.violation(reason);
  }
}
