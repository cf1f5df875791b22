// One end of a bare node-datachannel channel, the baseline the engine is measured against: the
// same library, chunk size and flow control as the engine, but no files, no protocol and no disk.
//   tsx bench/transfer/bare-peer.ts offerer <bytes>   sends <bytes> once the channel opens
//   tsx bench/transfer/bare-peer.ts answerer <bytes> [--seconds N]
//                                                     counts what arrives until <bytes> are in,
//                                                     or N seconds after the channel opened
// Both take `--sctp '<json>'` (node-datachannel's SctpSettings) and `--mtu N` (the
// PeerConnection's MTU). Negotiation payloads travel through the bench process over IPC.
import { parseArgs } from 'node:util';
import nodeDataChannel, { type DataChannel } from 'node-datachannel';
import {
  CHUNK_FALLBACK_NATIVE_BYTES,
  CHUNK_MAX_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../../src-shared/protocol';
import { finishedReport, now, report } from './bench-messages';
import { parseSctpSettings } from './sctp-settings';

const MS_PER_S = 1000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string' },
    sctp: { type: 'string' },
    mtu: { type: 'string' },
  },
});
if (values.sctp !== undefined) nodeDataChannel.setSctpSettings(parseSctpSettings(values.sctp));
const [role, size] = positionals;
const limitMs = values.seconds === undefined ? undefined : Number(values.seconds) * MS_PER_S;
const pc = new nodeDataChannel.PeerConnection(role ?? 'bare', {
  iceServers: [],
  ...(values.mtu === undefined ? {} : { mtu: Number(values.mtu) }),
});
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
      // A time-limited answerer closes the channel midway: then the pump just stops. The close
      // can land between isOpen() and the send, which then throws; this runs inside a native
      // callback, where an exception would abort the process before it reports its figures.
      try {
        while (
          sent < total &&
          channel.isOpen() &&
          channel.bufferedAmount() <= SEND_BUFFER_HIGH_WATER_BYTES
        ) {
          const length = Math.min(chunk.length, total - sent);
          channel.sendMessageBinary(length === chunk.length ? chunk : chunk.subarray(0, length));
          sent += length;
        }
      } catch {
        // The channel closed: onClosed finishes the run.
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
    let done = false;
    const stop = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      report({ type: 'received', at: now(), bytes: received });
      channel.close();
    };
    // The time limit runs from the channel's arrival here, about when the offerer's opens.
    const timer = limitMs === undefined ? undefined : setTimeout(stop, limitMs);
    channel.onClosed(finish);
    channel.onMessage((message) => {
      received += typeof message === 'string' ? message.length : message.byteLength;
      if (received >= Number(size)) stop();
    });
  });
}
