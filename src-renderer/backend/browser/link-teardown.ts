import { flushBuffer } from './channel-buffer';
import type { PeerLink } from './peer-connection';

/**
 * How long a closing channel may take to confirm. The close goes out after every byte queued
 * before it, so its confirmation means the peer has them; the connection is closed only then.
 */
export const CHANNEL_CLOSE_GRACE_MS = 5000;

/** Closes the channel (after `flushMs` for the send buffer to drain), then the connection. */
export async function closeLink(link: PeerLink, flushMs: number): Promise<void> {
  const { channel } = link;
  await flushBuffer(channel, flushMs);
  if (channel.readyState === 'open' || channel.readyState === 'connecting') {
    const closed = new Promise<void>((resolve) => {
      channel.addEventListener('close', () => resolve(), { once: true });
      setTimeout(resolve, CHANNEL_CLOSE_GRACE_MS);
    });
    channel.close();
    await closed;
  }
  link.close();
}
