// One end of a bare node-datachannel channel, the baseline the engine is measured against: the
// same library, chunk size and flow control as the engine, but no files, no protocol and no disk.
//   tsx bench/transfer/bare-peer.ts offerer <bytes>   sends <bytes> once the channel opens
//   tsx bench/transfer/bare-peer.ts answerer <bytes> [--seconds N]
//                                                     counts what arrives until <bytes> are in,
//                                                     or N seconds after the channel opened
// Both take `--sctp '<json>'` (node-datachannel's SctpSettings), `--mtu N` (the
// PeerConnection's MTU) and `--connections N`: N PeerConnections in this one process, one channel
// each, the bytes split evenly between them, as the engine's lanes do (the stack's own ceiling for
// striping, docs/performance.md). Negotiation payloads travel through the bench process over IPC,
// each tagged with its connection's index.
import { parseArgs } from 'node:util';
import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
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
    connections: { type: 'string', default: '1' },
  },
});
if (values.sctp !== undefined) nodeDataChannel.setSctpSettings(parseSctpSettings(values.sctp));
const [role, size] = positionals;
const limitMs = values.seconds === undefined ? undefined : Number(values.seconds) * MS_PER_S;
const connections = Number(values.connections);
if (!Number.isInteger(connections) || connections < 1) {
  throw new Error(`--connections must be a whole number ≥ 1, not "${values.connections}"`);
}
/** Each connection carries this much; the answerer is done once all of it is in. */
const share = Math.floor(Number(size) / connections);

/** A negotiation payload from the bench, for the connection it names. */
interface Signal {
  connection: number;
  sdp?: string;
  type?: string;
  candidate?: string;
  mid?: string;
}

const peers: PeerConnection[] = [];
const channels: DataChannel[] = [];
let closedPeers = 0;

function finish(): void {
  for (const channel of channels) channel.close();
  for (const peer of peers) peer.close();
}

/** One of this process's connections; the offerer's creates its channel and sends `share`. */
function connect(connection: number): { release: () => void } {
  const pc = new nodeDataChannel.PeerConnection(`${role ?? 'bare'}-${connection}`, {
    iceServers: [],
    ...(values.mtu === undefined ? {} : { mtu: Number(values.mtu) }),
  });
  peers.push(pc);
  // As in the engine (see PeerLink): the offerer's candidates wait for the answer, or
  // libdatachannel 0.24 may start DTLS before it knows the remote fingerprint and fail.
  let heldCandidates: { candidate: string; mid: string }[] | undefined =
    role === 'offerer' ? [] : undefined;
  pc.onStateChange((state) => {
    if (state === 'failed') report({ type: 'failed', message: `bare ${role}: connection failed` });
    if (state !== 'closed') return;
    closedPeers += 1;
    if (closedPeers < connections) return;
    report(finishedReport());
    process.disconnect?.();
  });
  pc.onLocalDescription((sdp, type) =>
    report({ type: 'signal', payload: { connection, sdp, type } }),
  );
  pc.onLocalCandidate((candidate, mid) => {
    if (heldCandidates) heldCandidates.push({ candidate, mid });
    else report({ type: 'signal', payload: { connection, candidate, mid } });
  });
  if (role === 'offerer') send(pc);
  else receive(pc);
  return {
    release() {
      for (const held of heldCandidates ?? [])
        report({ type: 'signal', payload: { connection, ...held } });
      heldCandidates = undefined;
    },
  };
}

let opened = false;

function send(pc: PeerConnection): void {
  const channel = pc.createDataChannel('bench');
  channels.push(channel);
  channel.onClosed(finish);
  channel.onOpen(() => {
    const max = pc.maxMessageSize();
    const chunk = Buffer.alloc(
      max > 0 ? Math.min(max, CHUNK_MAX_BYTES) : CHUNK_FALLBACK_NATIVE_BYTES,
    );
    // The clock starts with the first channel to open.
    if (!opened) report({ type: 'open', at: now() });
    opened = true;
    let sent = 0;
    const pump = (): void => {
      // A time-limited answerer closes the channel midway: then the pump just stops. The close
      // can land between isOpen() and the send, which then throws; this runs inside a native
      // callback, where an exception would abort the process before it reports its figures.
      try {
        while (
          sent < share &&
          channel.isOpen() &&
          channel.bufferedAmount() <= SEND_BUFFER_HIGH_WATER_BYTES
        ) {
          const length = Math.min(chunk.length, share - sent);
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
}

let received = 0;
let done = false;
let timer: NodeJS.Timeout | undefined;

function stop(): void {
  if (done) return;
  done = true;
  clearTimeout(timer);
  report({ type: 'received', at: now(), bytes: received });
  for (const channel of channels) channel.close();
}

function receive(pc: PeerConnection): void {
  pc.onDataChannel((channel) => {
    channels.push(channel);
    // The time limit runs from the first channel's arrival here, about when the offerer's opens.
    if (timer === undefined && limitMs !== undefined) timer = setTimeout(stop, limitMs);
    channel.onClosed(finish);
    channel.onMessage((message) => {
      received += typeof message === 'string' ? message.length : message.byteLength;
      if (received >= share * connections) stop();
    });
  });
}

const ends = Array.from({ length: connections }, (_, connection) => connect(connection));

process.on('message', (message: Signal) => {
  try {
    const pc = peers[message.connection];
    if (pc === undefined) throw new Error(`no connection ${message.connection}`);
    if (message.sdp !== undefined && (message.type === 'offer' || message.type === 'answer')) {
      pc.setRemoteDescription(message.sdp, message.type);
      ends[message.connection]?.release();
    } else if (message.candidate !== undefined && message.mid !== undefined) {
      pc.addRemoteCandidate(message.candidate, message.mid);
    }
  } catch (error) {
    report({ type: 'failed', message: String(error) });
  }
});
