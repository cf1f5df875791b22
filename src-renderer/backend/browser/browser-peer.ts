import type { NegotiationSignal } from '../../../src-shared/session/negotiation-signal';
import {
  DATA_CHANNEL_LABEL,
  type NegotiatedChannel,
  type PeerConnectionHandlers,
  type PeerConnectionPort,
} from '../../../src-shared/session/ports';
import { browserChannelPort } from './channel-port';
import { errorMessage } from '../../../src-shared/format/error-message';

/**
 * One RTCPeerConnection attempt as the session core's PeerConnectionPort: the browser adapter.
 * The offerer opens the channel and offers; the answerer answers once the offer is set. Every
 * connection of a page uses the page's certificate (browser-identity.ts), which is how other
 * devices recognise it.
 */
export function browserPeer(options: {
  role: 'offerer' | 'answerer';
  iceServers: RTCIceServer[];
  certificate: RTCCertificate | undefined;
  /** Both ends create this channel (a lane's); without it, the specification's in-band one. */
  negotiated: NegotiatedChannel | undefined;
}): PeerConnectionPort {
  const { role, iceServers, certificate, negotiated } = options;
  const pc = new RTCPeerConnection({
    iceServers,
    ...(certificate === undefined ? {} : { certificates: [certificate] }),
  });
  const handlers = new Set<PeerConnectionHandlers>();
  let closed = false;
  const each = (call: (handler: PeerConnectionHandlers) => void): void => {
    if (closed) return;
    for (const handler of [...handlers]) call(handler);
  };
  const signal = (message: NegotiationSignal): void => each((handler) => handler.signal?.(message));
  const failed = (reason: string): void => each((handler) => handler.failed?.(reason));

  pc.addEventListener('icecandidate', ({ candidate }) => {
    if (candidate === null || candidate.candidate === '') return;
    const { sdpMid, sdpMLineIndex } = candidate;
    signal({
      type: 'candidate',
      candidate: {
        candidate: candidate.candidate,
        ...(sdpMid === null ? {} : { sdpMid }),
        ...(sdpMLineIndex === null ? {} : { sdpMLineIndex }),
      },
    });
  });
  pc.addEventListener('connectionstatechange', () => {
    const state = pc.connectionState;
    if (state === 'connected') each((handler) => handler.connected?.());
    else if (state === 'failed') failed('the connection failed (ICE or DTLS)');
    else if (state === 'closed') failed('the connection closed');
  });
  const awaitChannel = (channel: RTCDataChannel): void => {
    channel.binaryType = 'arraybuffer';
    const open = (): void =>
      void browserChannelPort(pc, channel).then((port) => each((handler) => handler.open?.(port)));
    if (channel.readyState === 'open') open();
    else channel.addEventListener('open', open, { once: true });
  };
  const describe = (error: unknown): string => errorMessage(error);

  // A browser makes no offer of its own for a channel created before the remote one is set, so
  // a negotiated channel is created here at either end.
  if (negotiated !== undefined) {
    const { label, id } = negotiated;
    awaitChannel(pc.createDataChannel(label, { ordered: true, negotiated: true, id }));
  }
  if (role === 'offerer') {
    if (negotiated === undefined) {
      awaitChannel(pc.createDataChannel(DATA_CHANNEL_LABEL, { ordered: true }));
    }
    pc.createOffer()
      .then((offer) => pc.setLocalDescription(offer))
      .then(() => {
        const offer = pc.localDescription;
        if (offer === null) throw new Error('the browser produced no offer');
        signal({ type: 'offer', sdp: offer.sdp });
      })
      .catch((error: unknown) => failed(`the offer could not be made (${describe(error)})`));
  } else if (negotiated === undefined) {
    pc.addEventListener('datachannel', ({ channel }) => awaitChannel(channel), { once: true });
  }

  return {
    listen(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async setRemoteDescription(description) {
      await pc.setRemoteDescription(description);
      if (role !== 'answerer') return;
      await pc.setLocalDescription(await pc.createAnswer());
      const answer = pc.localDescription;
      if (answer === null) throw new Error('the browser produced no answer');
      signal({ type: 'answer', sdp: answer.sdp });
    },
    async addRemoteCandidate(candidate) {
      await pc.addIceCandidate(candidate);
    },
    close() {
      closed = true;
      handlers.clear();
      pc.close();
    },
  };
}
