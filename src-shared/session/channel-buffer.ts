import { BUFFER_POLL_MS } from './session-limits';
import type { ChannelPort, Clock } from './ports';

/**
 * Waits on a channel's send buffer. `bufferedAmountLow` fires only when the level crosses the one
 * threshold a channel has, so each wait sets it and a short poll backs it up.
 */
export class ChannelBuffer {
  readonly #channel: ChannelPort;
  readonly #clock: Clock;
  #waiters: (() => void)[] = [];

  constructor(channel: ChannelPort, clock: Clock) {
    this.#channel = channel;
    this.#clock = clock;
  }

  get bytes(): number {
    return this.#channel.bufferedAmount();
  }

  /** The channel reported a low level or closed: every wait checks again. */
  wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * Resolves true once fewer than `belowBytes` wait in the buffer (0: once it is empty); false
   * when the channel closes or `wanted` turns false first.
   */
  async below(belowBytes: number, wanted: () => boolean = () => true): Promise<boolean> {
    const channel = this.#channel;
    const reached = (): boolean =>
      belowBytes === 0 ? channel.bufferedAmount() === 0 : channel.bufferedAmount() < belowBytes;
    while (!reached()) {
      if (channel.isClosed || !wanted()) return false;
      channel.setBufferedAmountLowThreshold(Math.max(0, belowBytes - 1));
      await new Promise<void>((resolve) => {
        const poll = this.#clock.setTimeout(resolve, BUFFER_POLL_MS);
        this.#waiters.push(() => {
          poll.cancel();
          resolve();
        });
      });
    }
    return true;
  }

  /** Waits up to `ms` for the buffer to empty: it only buys a last frame time to leave. */
  async drained(ms: number): Promise<void> {
    if (ms <= 0) return;
    const deadline = this.#clock.now() + ms;
    await this.below(0, () => this.#clock.now() < deadline);
  }
}
