/**
 * Backstop for `bufferedamountlow`, which fires only when the level crosses the one threshold a
 * channel has: a wait whose threshold another wait replaced still notices its level.
 */
export const BUFFER_POLL_MS = 50;

export class ChannelClosedError extends Error {
  constructor() {
    super('the data channel closed');
  }
}

/**
 * Resolves once the channel's send buffer holds fewer than `belowBytes` (0 waits for it to be
 * empty); rejects when the channel closes or `signal` aborts.
 */
export function waitForBuffer(
  channel: RTCDataChannel,
  belowBytes: number,
  signal: AbortSignal,
): Promise<void> {
  const reached = (): boolean =>
    belowBytes === 0 ? channel.bufferedAmount === 0 : channel.bufferedAmount < belowBytes;
  if (reached()) return Promise.resolve();
  if (signal.aborted) return Promise.reject(signal.reason);
  if (channel.readyState !== 'open') return Promise.reject(new ChannelClosedError());
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (reached()) finish(resolve);
      else if (channel.readyState !== 'open') finish(() => reject(new ChannelClosedError()));
    };
    const abort = (): void => finish(() => reject(signal.reason));
    const closed = (): void => finish(() => reject(new ChannelClosedError()));
    const poll = setInterval(check, BUFFER_POLL_MS);
    function finish(settle: () => void): void {
      clearInterval(poll);
      channel.removeEventListener('bufferedamountlow', check);
      channel.removeEventListener('close', closed);
      signal.removeEventListener('abort', abort);
      settle();
    }
    channel.bufferedAmountLowThreshold = Math.max(0, belowBytes - 1);
    channel.addEventListener('bufferedamountlow', check);
    channel.addEventListener('close', closed);
    signal.addEventListener('abort', abort);
  });
}

/** Waits up to `ms` for the buffer to empty; never rejects, since it only buys a frame time. */
export async function flushBuffer(channel: RTCDataChannel, ms: number): Promise<void> {
  if (ms <= 0) return;
  try {
    await waitForBuffer(channel, 0, AbortSignal.timeout(ms));
  } catch {
    // A channel that closed or did not drain in time is closed anyway.
  }
}
