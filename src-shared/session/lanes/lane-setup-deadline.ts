import type { Clock, ClockTimer } from '../ports';
import { LANE_SETUP_TIMEOUT_MS } from '../session-limits';

/**
 * Sender: LANE_SETUP_TIMEOUT_MS from its (latest) round of lane offers, after which a lane not
 * open is left out (docs/protocol.md, "Lanes"). Moot once every lane is open or gone.
 */
export class LaneSetupDeadline {
  readonly #clock: Clock;
  #timer: ClockTimer | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Counts from now, replacing any earlier count: a fresh round of offers gets the whole time. */
  start(passed: () => void): void {
    this.#timer?.cancel();
    this.#timer = this.#clock.setTimeout(passed, LANE_SETUP_TIMEOUT_MS);
  }

  cancel(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }
}
