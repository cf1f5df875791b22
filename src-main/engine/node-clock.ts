import type { Clock, ClockTimer } from '../../src-shared/session/ports';

/** Node's clock as the session core's Clock port; the core itself reads no real time. */
export const nodeClock: Clock = {
  now: () => performance.now(),
  setTimeout(callback: () => void, ms: number): ClockTimer {
    const handle = setTimeout(callback, ms);
    return {
      cancel: () => clearTimeout(handle),
      // Re-arming in place is cheaper than a new timer; the receiver does it for every chunk.
      refresh: () => void handle.refresh(),
    };
  },
};
