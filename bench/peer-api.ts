// `npm run bench:peer-api [-- --mib 256] [--rounds 3]`: how much data-channel throughput a native
// peer written against the W3C API of node-datachannel's polyfill (RTCPeerConnection, as
// simple-peer uses it) keeps against node-datachannel's own API. Both variants: two processes on
// loopback, signaled over IPC through this one, host candidates only, chunks of the negotiated
// maximum message size (256 KiB) and Ferry's flow control (pause above 8 MiB buffered, resume on
// buffered-amount-low at 4 MiB). `raw` is bench/transfer's bare channel; `polyfill` is this file,
// started again as `tsx bench/peer-api.ts offerer|answerer <bytes>`. Prints JSON.
import { parseArgs } from 'node:util';
import {
  RTCDataChannelEvent,
  RTCPeerConnection,
  RTCPeerConnectionIceEvent,
  type RTCDataChannel,
} from 'node-datachannel/polyfill';
import {
  CHUNK_FALLBACK_NATIVE_BYTES,
  CHUNK_MAX_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../src-shared/protocol';
import { finishedReport, now, report } from './transfer/bench-messages';
import { bareChannelRun, type RunFigures } from './transfer/measured-run';
import { startPeer, type PeerProcess } from './transfer/peer-process';

const MiB = 1024 * 1024;
/** The same negotiation payloads as bench/transfer/bare-peer.ts, so one relay serves both. */
type Signal = { sdp?: string; type?: string; candidate?: string; mid?: string };

const [role, size] = process.argv.slice(2);
if (role === 'offerer' || role === 'answerer') polyfillPeer(role, Number(size));
else await bench();

/** One end of a polyfill channel: what a simple-peer-style native peer would do. */
function polyfillPeer(side: 'offerer' | 'answerer', total: number): void {
  // Through a variable: the polyfill's config type extends the DOM's, which this Node-only
  // tsconfig lacks, so a literal `iceServers` is an excess property. peerIdentity names the peer.
  const config = { iceServers: [], peerIdentity: `polyfill-${side}` };
  const pc = new RTCPeerConnection(config);
  // The polyfill keeps its own set of channels too, but the notes' rule is ours to keep.
  const channels: RTCDataChannel[] = [];
  const fail = (error: unknown) =>
    report({ type: 'failed', message: `polyfill ${side}: ${error}` });
  // EventTarget rethrows a listener's exception as an uncaught one, which would kill the process.
  const guard =
    <A extends unknown[]>(listener: (...args: A) => void) =>
    (...args: A) => {
      try {
        listener(...args);
      } catch (error) {
        fail(error);
      }
    };

  // As bare-peer and the engine: the offerer's candidates wait for the answer (libdatachannel 0.24
  // may start DTLS before it knows the remote fingerprint), and remote candidates wait for the
  // remote description, which addIceCandidate would otherwise reject.
  let heldLocal: Signal[] | undefined = side === 'offerer' ? [] : undefined;
  let heldRemote: Signal[] | undefined = [];
  const addCandidate = (signal: Signal) =>
    pc.addIceCandidate({ candidate: signal.candidate, sdpMid: signal.mid }).catch(fail);

  pc.addEventListener(
    'icecandidate',
    guard((event: Event) => {
      if (!(event instanceof RTCPeerConnectionIceEvent) || !event.candidate) return;
      const signal: Signal = { candidate: event.candidate.candidate, mid: event.candidate.sdpMid };
      if (heldLocal) heldLocal.push(signal);
      else report({ type: 'signal', payload: signal });
    }),
  );
  pc.addEventListener(
    'connectionstatechange',
    guard(() => {
      if (pc.connectionState === 'failed') fail('connection failed');
      // connectionState is read live, not carried by the event: two events can both see 'closed'.
      if (pc.connectionState !== 'closed' || !process.connected) return;
      report(finishedReport());
      process.disconnect?.();
    }),
  );
  process.on('message', (signal: Signal) => {
    void (async () => {
      if (signal.sdp !== undefined) {
        await pc.setRemoteDescription({ sdp: signal.sdp, type: signal.type });
        if (side === 'answerer') {
          const answer: Signal = await pc.createAnswer();
          await pc.setLocalDescription(answer);
          report({ type: 'signal', payload: { sdp: answer.sdp, type: answer.type } });
        }
        const [local, remote] = [heldLocal ?? [], heldRemote ?? []];
        heldLocal = heldRemote = undefined;
        for (const held of local) report({ type: 'signal', payload: held });
        for (const held of remote) await addCandidate(held);
      } else if (heldRemote) heldRemote.push(signal);
      else await addCandidate(signal);
    })().catch(fail);
  });

  const finish = guard(() => {
    for (const channel of channels) channel.close();
    pc.close();
  });
  if (side === 'offerer') {
    const channel = pc.createDataChannel('bench');
    channels.push(channel);
    channel.addEventListener('close', finish);
    channel.addEventListener(
      'open',
      guard(() => {
        const max: number = pc.sctp.maxMessageSize ?? 0;
        const chunk = new Uint8Array(
          max > 0 ? Math.min(max, CHUNK_MAX_BYTES) : CHUNK_FALLBACK_NATIVE_BYTES,
        );
        report({ type: 'open', at: now() });
        let sent = 0;
        const pump = guard(() => {
          while (sent < total && channel.bufferedAmount <= SEND_BUFFER_HIGH_WATER_BYTES) {
            const length = Math.min(chunk.length, total - sent);
            channel.send(length === chunk.length ? chunk : chunk.subarray(0, length));
            sent += length;
          }
        });
        channel.bufferedAmountLowThreshold = SEND_BUFFER_LOW_WATER_BYTES - 1;
        channel.addEventListener('bufferedamountlow', pump);
        pump();
      }),
    );
    void (async () => {
      const offer: Signal = await pc.createOffer();
      await pc.setLocalDescription(offer);
      report({ type: 'signal', payload: { sdp: offer.sdp, type: offer.type } });
    })().catch(fail);
  } else {
    pc.addEventListener(
      'datachannel',
      guard((event: Event) => {
        if (!(event instanceof RTCDataChannelEvent)) return;
        const channel = event.channel;
        channels.push(channel);
        channel.binaryType = 'arraybuffer';
        let received = 0;
        channel.addEventListener('close', finish);
        channel.addEventListener(
          'message',
          guard((message: Event) => {
            const data: unknown = message instanceof MessageEvent ? message.data : undefined;
            if (!(data instanceof ArrayBuffer)) throw new Error('a message that is no ArrayBuffer');
            received += data.byteLength;
            if (received < total) return;
            report({ type: 'received', at: now(), bytes: received });
            channel.close();
          }),
        );
      }),
    );
  }
}

/** The polyfill run, measured as bench/transfer measures its bare channel: open to received. */
async function polyfillRun(bytes: number): Promise<RunFigures> {
  const offerer = startPeer('../peer-api.ts', ['offerer', String(bytes)]);
  const answerer = startPeer('../peer-api.ts', ['answerer', String(bytes)]);
  const relay = (from: PeerProcess, to: PeerProcess) =>
    from.child.on('message', (message: { type: string; payload?: unknown }) => {
      if (message.type === 'signal' && to.child.connected) to.child.send(message.payload as object);
    });
  relay(offerer, answerer);
  relay(answerer, offerer);
  // A stalled channel must not hang the bench: it is a result, recorded as a failed run.
  const deadline = setTimeout(
    () => [offerer, answerer].forEach((p) => p.child.kill()),
    20_000 + (bytes / (2 * MiB)) * 1000,
  );
  try {
    const [open, received] = await Promise.all([offerer.next('open'), answerer.next('received')]);
    const ends = await Promise.all([offerer.next('finished'), answerer.next('finished')]);
    await Promise.all([offerer.exited, answerer.exited]);
    const seconds = (received.at - open.at) / 1000;
    const [sender, receiver] = ends.map((end) => ({
      peakRssMB: round(end.peakRssBytes / 1e6),
      cpuSeconds: round(end.cpuSeconds),
    }));
    const mibPerSecond = round(bytes / MiB / seconds);
    return { mibPerSecond, seconds: round(seconds), sender, receiver };
  } finally {
    clearTimeout(deadline);
  }
}

async function bench(): Promise<void> {
  const { values } = parseArgs({
    options: { mib: { type: 'string', default: '256' }, rounds: { type: 'string', default: '3' } },
  });
  const mib = Math.max(1, Number(values.mib));
  const rounds = Math.max(1, Number(values.rounds));
  type Run = RunFigures | { failed: string };
  const variants = { raw: bareChannelRun, polyfill: polyfillRun };
  const runs: Record<keyof typeof variants, Run[]> = { raw: [], polyfill: [] };
  // Alternating runs share whatever else the machine is doing; the best of each is compared.
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of ['raw', 'polyfill'] as const) {
      const run = variants[variant](mib * MiB);
      runs[variant].push(await run.catch((error: Error) => ({ failed: error.message })));
    }
  }
  const best = (variant: keyof typeof runs) =>
    Math.max(0, ...runs[variant].map((run) => ('failed' in run ? 0 : run.mibPerSecond)));
  const result = {
    bench: 'peer-api',
    mib,
    rounds,
    raw: { bestMiBps: best('raw'), runs: runs.raw },
    polyfill: { bestMiBps: best('polyfill'), runs: runs.polyfill },
    ratio: best('raw') > 0 ? round(best('polyfill') / best('raw')) : null,
  };
  console.log(JSON.stringify(result, null, 2));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
