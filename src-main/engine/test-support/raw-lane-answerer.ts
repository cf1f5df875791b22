import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
import { textFrame } from '../../../src-shared/protocol';
import type { ChannelPort } from '../../../src-shared/session/ports';

/** A `ferry-lane` message as docs/protocol.md ("Lanes") writes it. */
interface LaneSignalMessage {
  type: 'ferry-lane';
  lane: number;
  signal:
    | { type: 'offer' | 'answer'; sdp: string }
    | { type: 'candidate'; candidate: { candidate: string; sdpMid?: string } };
}

function laneSignal(text: string): LaneSignalMessage | undefined {
  const message = JSON.parse(text) as { type?: unknown };
  return message.type === 'ferry-lane' ? (message as LaneSignalMessage) : undefined;
}

/**
 * The answering end of one lane, written from docs/protocol.md ("Lanes") with node-datachannel
 * alone, none of Ferry's engine: it answers the sender's offer for `lane` on the first connection
 * `first`, then creates the lane's channel itself — label `ferry-lane`, stream 0, negotiated out
 * of band — and records what arrives on it. A channel announced in band (RFC 8832) is recorded by
 * label and refused: the document says a lane has none.
 */
export function rawLaneAnswerer(first: ChannelPort, lane: number) {
  let pc: PeerConnection | undefined;
  let channel: DataChannel | undefined;
  const announced: string[] = [];
  let receivedFirst!: (message: Uint8Array) => void;
  const firstMessage = new Promise<Uint8Array>((resolve) => (receivedFirst = resolve));
  const reply = (signal: LaneSignalMessage['signal']): void => {
    first.send(textFrame(JSON.stringify({ type: 'ferry-lane', lane, signal })));
  };
  const held: { candidate: string; sdpMid: string }[] = [];

  const unlisten = first.listen({
    frame: (frame) => {
      if (frame.kind !== 'text') return;
      const message = laneSignal(frame.text);
      if (message?.lane !== lane) return;
      const { signal } = message;
      if (signal.type === 'offer') {
        const peer = new nodeDataChannel.PeerConnection('raw-lane', { iceServers: [] });
        pc = peer;
        peer.onLocalDescription((sdp, type) => reply({ type: type as 'answer', sdp }));
        peer.onLocalCandidate((candidate, sdpMid) =>
          reply({ type: 'candidate', candidate: { candidate, sdpMid } }),
        );
        peer.onDataChannel((incoming) => {
          announced.push(incoming.getLabel());
          incoming.close();
        });
        peer.setRemoteDescription(signal.sdp, 'offer');
        const own = peer.createDataChannel('ferry-lane', { negotiated: true, id: 0 });
        channel = own;
        own.onMessage((message) => {
          if (typeof message !== 'string') receivedFirst(new Uint8Array(message));
        });
        for (const candidate of held.splice(0))
          peer.addRemoteCandidate(candidate.candidate, candidate.sdpMid);
      } else if (signal.type === 'candidate') {
        const candidate = {
          candidate: signal.candidate.candidate,
          sdpMid: signal.candidate.sdpMid ?? '0',
        };
        if (pc === undefined) held.push(candidate);
        else pc.addRemoteCandidate(candidate.candidate, candidate.sdpMid);
      }
    },
  });

  return {
    /** The first binary message on the lane's own channel. */
    firstMessage,
    /** Labels of channels the sender announced in band on the lane. */
    announced,
    close(): void {
      unlisten();
      channel?.close();
      pc?.close();
    },
  };
}
