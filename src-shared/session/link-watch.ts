import { LINK_ALIVE_INTERVAL_MS, LINK_SILENCE_MS } from '../protocol/limits';
import type { Capability } from '../protocol/messages';
import type { ProgressView } from '../transfer/transfer-view';
import type { Clock, ClockTimer } from './ports';

/** How much of a batch a lost link leaves in place, for "reconnecting" to show. */
export interface KeptBytes {
  bytesDone: number;
  totalBytes: number;
}

export function keptBytes(progress: ProgressView): KeptBytes {
  return { bytesDone: progress.bytesDone, totalBytes: progress.totalBytes };
}

/** A lost link is restored only where what arrived can be resumed and checked. */
export function reconnects(agreed: ReadonlySet<Capability>): boolean {
  return agreed.has('reconnect') && agreed.has('resume') && agreed.has('verify');
}

/**
 * Tells a silent link from a busy one between peers that agreed `reconnect` (docs/protocol.md,
 * "Reconnect"): this side sends `ferry-alive` every LINK_ALIVE_INTERVAL_MS, and nothing at all
 * arriving for LINK_SILENCE_MS means the link is lost. A cut route closes nothing: without this,
 * a transfer would sit until its 60 s stall deadlines and then fail.
 */
export class LinkWatch {
  readonly #clock: Clock;
  readonly #sendAlive: () => void;
  readonly #onSilent: () => void;
  #alive: ClockTimer | undefined;
  #silence: ClockTimer | undefined;

  constructor(clock: Clock, sendAlive: () => void, onSilent: () => void) {
    this.#clock = clock;
    this.#sendAlive = sendAlive;
    this.#onSilent = onSilent;
  }

  get watching(): boolean {
    return this.#silence !== undefined;
  }

  start(): void {
    if (this.watching) return;
    this.#silence = this.#clock.setTimeout(() => {
      this.stop();
      this.#onSilent();
    }, LINK_SILENCE_MS);
    const beat = (): void => {
      this.#sendAlive();
      this.#alive = this.#clock.setTimeout(beat, LINK_ALIVE_INTERVAL_MS);
    };
    this.#alive = this.#clock.setTimeout(beat, LINK_ALIVE_INTERVAL_MS);
  }

  /** Something arrived from the other side. */
  heard(): void {
    this.#silence?.refresh();
  }

  stop(): void {
    this.#alive?.cancel();
    this.#silence?.cancel();
    this.#alive = undefined;
    this.#silence = undefined;
  }
}
