// One end of a bare node-datachannel channel, the baseline the engine is measured against: the
// same library, chunk size and flow control as the engine, but no files, no protocol and no disk.
//   tsx bench/transfer/bare-peer.ts offerer <bytes>   sends <bytes> once the channel opens
//   tsx bench/transfer/bare-peer.ts answerer          counts what arrives
// Negotiation payloads travel through the bench process over IPC.
import nodeDataChannel, { type DataChannel } from 'node-datachannel';
import {
  CHUNK_FALLBACK_NATIVE_BYTES,
  CHUNK_MAX_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../../src-shared/protocol';
import { finishedReport, now, report } from './bench-messages';

const [role, size] = process.argv.slice(2);
const pc = new nodeDataChannel.PeerConnection(role ?? 'bare', { iceServers: [] });
const channels: DataChannel[] = [];

function finish(): void {
  for (const channel of channels) channel.close();
  pc.close();
}

// As in the engine (see PeerLink): the offerer's candidates wait for the answer, or
// libdatachannel 0.24 may start DTLS before it knows the remote fingerprint and fail.
let heldCandidates: { candidate: string; mid: string }[] | undefined =
  role === 'offerer' ? [] : undefined;

pc.onStateChange((state) => {
  if (state === 'failed') report({ type: 'failed', message: `bare ${role}: connection failed` });
  if (state !== 'closed') return;
  report(finishedReport());
  process.disconnect?.();
});
pc.onLocalDescription((sdp, type) => report({ type: 'signal', payload: { sdp, type } }));
pc.onLocalCandidate((candidate, mid) => {
  if (heldCandidates) heldCandidates.push({ candidate, mid });
  else report({ type: 'signal', payload: { candidate, mid } });
});
process.on(
  'message',
  (message: { sdp?: string; type?: string; candidate?: string; mid?: string }) => {
    try {
      if (message.sdp !== undefined && (message.type === 'offer' || message.type === 'answer')) {
        pc.setRemoteDescription(message.sdp, message.type);
        for (const held of heldCandidates ?? []) report({ type: 'signal', payload: held });
        heldCandidates = undefined;
      } else if (message.candidate !== undefined && message.mid !== undefined) {
        pc.addRemoteCandidate(message.candidate, message.mid);
      }
    } catch (error) {
      report({ type: 'failed', message: String(error) });
    }
  },
);

if (role === 'offerer') {
  const total = Number(size);
  const channel = pc.createDataChannel('bench');
  channels.push(channel);
  channel.onClosed(finish);
  channel.onOpen(() => {
    const max = pc.maxMessageSize();
    const chunk = Buffer.alloc(
      max > 0 ? Math.min(max, CHUNK_MAX_BYTES) : CHUNK_FALLBACK_NATIVE_BYTES,
    );
    report({ type: 'open', at: now() });
    let sent = 0;
    const pump = (): void => {
      while (sent < total && channel.bufferedAmount() <= SEND_BUFFER_HIGH_WATER_BYTES) {
        const length = Math.min(chunk.length, total - sent);
        channel.sendMessageBinary(length === chunk.length ? chunk : chunk.subarray(0, length));
        sent += length;
      }
    };
    channel.setBufferedAmountLowThreshold(SEND_BUFFER_LOW_WATER_BYTES - 1);
    channel.onBufferedAmountLow(pump);
    pump();
  });
} else {
  pc.onDataChannel((channel) => {
    channels.push(channel);
    let received = 0;
    channel.onClosed(finish);
    channel.onMessage((message) => {
      received += typeof message === 'string' ? message.length : message.byteLength;
      if (received < Number(size)) return;
      report({ type: 'received', at: now(), bytes: received });
      channel.close();
    });
  });
}
