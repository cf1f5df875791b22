import { frameByteLength, type Frame } from '../../protocol/frame';
import { LANE_REORDER_MAX_BYTES } from '../session-limits';
import type { LaneConnection } from './lane-connection';

/**
 * Receiver: frames of extra lanes that arrived before the stripe message did (docs/protocol.md,
 * "Lanes"). A lane may open and carry frames before the first connection delivers the stripe; they
 * wait for it, up to what the reorder buffer may hold.
 */
export class LaneEarlyFrames {
  readonly #frames: { lane: LaneConnection; frame: Frame }[] = [];
  #bytes = 0;

  /** Keeps `frame` of `lane`; false once what is kept passes LANE_REORDER_MAX_BYTES. */
  keep(lane: LaneConnection, frame: Frame): boolean {
    this.#frames.push({ lane, frame });
    this.#bytes += frameByteLength(frame);
    return this.#bytes <= LANE_REORDER_MAX_BYTES;
  }

  /** Every frame kept, in arrival order; none is kept afterwards. */
  take(): { lane: LaneConnection; frame: Frame }[] {
    this.#bytes = 0;
    return this.#frames.splice(0);
  }
}
