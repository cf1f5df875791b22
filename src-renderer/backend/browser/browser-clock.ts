import type { Clock, ClockTimer } from '../../../src-shared/session/ports';

/** The browser's clock as the session core's Clock port; the core itself reads no real time. */
export const browserClock: Clock = {
  now: () => performance.now(),
  setTimeout(callback: () => void, ms: number): ClockTimer {
    let handle = setTimeout(callback, ms);
    return {
      cancel: () => clearTimeout(handle),
      refresh: () => {
        clearTimeout(handle);
        handle = setTimeout(callback, ms);
      },
    };
  },
};
