import { closeWithGrace } from '../../../src-shared/session/close-grace';
import { FrameInbox } from '../../../src-shared/session/frame-inbox';
import type { ChannelHandlers, ChannelPort } from '../../../src-shared/session/ports';
import {
  certificatesInUse,
  type StatsEntry,
} from '../../../src-shared/verify/transport-certificates';
import { browserClock } from './browser-clock';
import { frameOf, sendFrame } from './channel-frames';
import { isRelayed } from './route-kind';

/**
 * An open RTCDataChannel and its RTCPeerConnection as the session core's ChannelPort: the
 * browser adapter, translation only. It listens from the call on, and is ready once the
 * certificates DTLS used have been read from the connection's stats (the core reads them
 * synchronously, for the words, the link proof and the device checks).
 */
export async function browserChannelPort(
  pc: RTCPeerConnection,
  channel: RTCDataChannel,
): Promise<ChannelPort> {
  let closedReason: string | undefined;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const closedListeners = new Set<(reason: string) => void>();
  const end = (reason: string): void => {
    if (closedReason !== undefined) return;
    closedReason = reason;
    for (const listener of [...closedListeners]) listener(reason);
  };
  const letGo = (): void => {
    pc.close();
    release();
  };
  // Listening from the moment the channel opens: the peer may send before the core listens.
  const frames = new FrameInbox();
  channel.addEventListener('message', ({ data }: MessageEvent) => {
    const read = frameOf(data);
    if (read !== undefined) frames.deliver(read);
  });
  channel.addEventListener('close', () => end('the data channel closed'));
  pc.addEventListener('connectionstatechange', () => {
    const state = pc.connectionState;
    if (state === 'failed' || state === 'closed') end(`the connection ${state}`);
  });

  const fingerprints = certificatesInUse(await statsOf(pc), {
    localSdp: pc.localDescription?.sdp ?? '',
    remoteSdp: pc.remoteDescription?.sdp ?? '',
  });

  return {
    send(frame) {
      if (channel.readyState !== 'open') return false;
      try {
        sendFrame(channel, frame);
        return true;
      } catch {
        return false;
      }
    },
    bufferedAmount: () => channel.bufferedAmount,
    setBufferedAmountLowThreshold(bytes) {
      channel.bufferedAmountLowThreshold = bytes;
    },
    maxMessageSize: () => pc.sctp?.maxMessageSize ?? 0,
    relayed: () => isRelayed(pc),
    fingerprints: () => fingerprints,
    get isClosed() {
      return closedReason !== undefined || channel.readyState !== 'open';
    },
    listen(handlers: ChannelHandlers) {
      const { frame, bufferedAmountLow, closed } = handlers;
      const unlistenFrames = frame && frames.listen(frame);
      const onLow = (): void => bufferedAmountLow?.();
      if (bufferedAmountLow) channel.addEventListener('bufferedamountlow', onLow);
      if (closed) closedListeners.add(closed);
      return () => {
        unlistenFrames?.();
        channel.removeEventListener('bufferedamountlow', onLow);
        if (closed) closedListeners.delete(closed);
      };
    },
    close(graceMs) {
      // Closed already: the peer has confirmed, there is nothing to wait for.
      if (channel.readyState === 'closed') {
        letGo();
        return;
      }
      channel.addEventListener('close', closeWithGrace(browserClock, graceMs, letGo), {
        once: true,
      });
      channel.close();
    },
    released,
  };
}

/** The connection's stats entries; none when the connection can no longer report them. */
async function statsOf(pc: RTCPeerConnection): Promise<StatsEntry[]> {
  const entries: StatsEntry[] = [];
  try {
    (await pc.getStats()).forEach((entry: StatsEntry) => entries.push(entry));
  } catch {
    // A closed connection has no stats; the port then has no certificates to offer.
  }
  return entries;
}
