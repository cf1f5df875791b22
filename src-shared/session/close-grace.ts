import type { Clock } from './ports';

/**
 * The end of a channel closed with a grace (`ChannelPort.close(graceMs)`): its close travels
 * behind every frame queued before it, so the connection under it is let go only once the peer
 * confirms the close, or once `graceMs` has passed on `clock` (0: on its next turn), whichever
 * comes first. The adapter closes the channel itself, then calls what this returns when the
 * peer's confirmation, or the end of the connection, arrives; `letGo` runs once.
 */
export function closeWithGrace(clock: Clock, graceMs: number, letGo: () => void): () => void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    timer.cancel();
    letGo();
  };
  const timer = clock.setTimeout(once, Math.max(0, graceMs));
  return once;
}
