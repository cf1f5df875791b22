/** Milliseconds since the epoch; injected so tests can move time forward. */
export type Clock = () => number;

/** Runs `task` every `intervalMs` until the returned function is called; injected so tests fire it by hand. */
export type Every = (intervalMs: number, task: () => void) => () => void;

export const systemClock: Clock = () => Date.now();

export const systemEvery: Every = (intervalMs, task) => {
  const timer = setInterval(task, intervalMs);
  // Housekeeping alone must never keep a process alive.
  timer.unref();
  return () => clearInterval(timer);
};
