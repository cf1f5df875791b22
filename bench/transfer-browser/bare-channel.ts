// The baseline: one bare data channel between a Chromium page and node-datachannel in this
// process, with the chunk size and flow control Ferry uses, and nothing else: no protocol, no
// file reading, no storage. A second node → page variant saves what arrives through the web
// client's download worker, to tell the browser's cost of saving a file from Ferry's own.
import { randomUUID } from 'node:crypto';
import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
import type { BrowserContext, Page } from 'playwright';
import type {
  DownloadChunk,
  StartDownload,
} from '../../src-renderer/backend/browser/download-worker-messages';
import {
  DOWNLOAD_BATCH_BYTES,
  CHUNK_MAX_BYTES,
  SDP_MAX_MESSAGE_SIZE_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../../src-shared/protocol/limits';

type Signal = { sdp: string; type: string } | { candidate: string; mid: string };

const CONNECT_TIMEOUT_MS = 30_000;

// The page's half, as source text: the bench runs under tsx, whose helpers would not exist in the
// page if this were a function compiled here.
const PAGE_PEER = `
window.benchSetup = (offers) => {
  const pc = new RTCPeerConnection();
  window.benchPc = pc;
  pc.onicecandidate = ({ candidate }) => {
    if (candidate && candidate.candidate) window.benchToNode({ candidate: candidate.candidate, mid: candidate.sdpMid || '0' });
  };
  const early = [];
  window.benchSignal = async (message) => {
    if (message.sdp !== undefined) {
      await pc.setRemoteDescription({ type: message.type, sdp: message.sdp });
      for (const candidate of early.splice(0)) await pc.addIceCandidate(candidate);
      if (message.type === 'offer') {
        await pc.setLocalDescription(await pc.createAnswer());
        window.benchToNode({ sdp: pc.localDescription.sdp, type: 'answer' });
      }
    } else {
      const candidate = { candidate: message.candidate, sdpMid: message.mid };
      if (pc.remoteDescription) await pc.addIceCandidate(candidate); else early.push(candidate);
    }
  };
  const adopt = (channel) => { channel.binaryType = 'arraybuffer'; window.benchChannel = channel; };
  if (offers) pc.ondatachannel = ({ channel }) => adopt(channel);
  else {
    adopt(pc.createDataChannel('bench'));
    pc.createOffer().then(async (offer) => {
      await pc.setLocalDescription(offer);
      window.benchToNode({ sdp: offer.sdp, type: 'offer' });
    });
  }
};
window.benchSend = ({ total, chunk, high, low }) => {
  const channel = window.benchChannel;
  const data = new Uint8Array(chunk);
  crypto.getRandomValues(data.subarray(0, 65536));
  channel.bufferedAmountLowThreshold = low;
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      if (channel.bufferedAmount > high) return;
      const size = Math.min(chunk, total - sent);
      channel.send(size === chunk ? data : data.subarray(0, size));
      sent += size;
    }
  };
  channel.onbufferedamountlow = pump;
  pump();
};
window.benchOpenDownload = async ({ scope, start, chunks, end, batchBytes }) => {
  const registration = await navigator.serviceWorker.getRegistration(scope);
  const worker = registration && registration.active;
  if (!worker) throw new Error('the download worker is not active');
  const { port1: port, port2 } = new MessageChannel();
  const url = await new Promise((resolve) => {
    port.onmessage = ({ data }) => { if (data.type === 'ready') resolve(data.url); };
    worker.postMessage(start, [port2]);
  });
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = url;
  document.body.append(frame);
  let batch = [];
  let batched = 0;
  const flush = () => {
    port.postMessage({ type: chunks, buffers: batch }, batch);
    batch = [];
    batched = 0;
  };
  window.benchSink = {
    write: (buffer) => {
      batch.push(buffer);
      batched += buffer.byteLength;
      if (batched >= batchBytes) flush();
    },
    end: () => {
      if (batch.length > 0) flush();
      port.postMessage(end);
    },
  };
};
window.benchReceive = (total) => new Promise((resolve) => {
  const sink = window.benchSink;
  let received = 0;
  window.benchChannel.onmessage = ({ data }) => {
    received += data.byteLength;
    if (sink) sink.write(data);
    if (received >= total) {
      if (sink) sink.end();
      resolve();
    }
  };
});
`;

/** node-datachannel's answer omits the attribute; Ferry's engine adds it, and so does this. */
function withMaxMessageSize(sdp: string): string {
  return sdp.replace(
    /(a=sctp-port:\d+\r?\n)/,
    `$1a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}\r\n`,
  );
}

/** A node-datachannel peer and a fresh page's RTCPeerConnection, signaling through Playwright. */
async function connect(
  context: BrowserContext,
  nodeOffers: boolean,
  url?: string,
): Promise<{ page: Page; pc: PeerConnection; channel: DataChannel }> {
  const page = await context.newPage();
  if (url !== undefined) await page.goto(url);
  const pc = new nodeDataChannel.PeerConnection('bench', { iceServers: [] });
  const toPage = (signal: Signal): void => {
    void page.evaluate(
      (message) =>
        (globalThis as unknown as { benchSignal(m: unknown): void }).benchSignal(message),
      signal,
    );
  };
  pc.onLocalDescription((sdp, type) =>
    toPage({ sdp: type === 'answer' ? withMaxMessageSize(sdp) : sdp, type }),
  );
  pc.onLocalCandidate((candidate, mid) => toPage({ candidate: candidate.replace(/^a=/, ''), mid }));
  await page.exposeFunction('benchToNode', (signal: Signal) => {
    if ('sdp' in signal) pc.setRemoteDescription(signal.sdp, signal.type as 'offer' | 'answer');
    else {
      try {
        pc.addRemoteCandidate(signal.candidate, signal.mid);
      } catch {
        // An mDNS name node-datachannel cannot resolve; the other candidates carry the route.
      }
    }
  });
  await page.evaluate(PAGE_PEER);
  const opened = new Promise<DataChannel>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the bare channel did not open')),
      CONNECT_TIMEOUT_MS,
    );
    const done = (channel: DataChannel): void => {
      clearTimeout(timer);
      resolve(channel);
    };
    if (nodeOffers) {
      const channel = pc.createDataChannel('bench');
      channel.onOpen(() => done(channel));
    } else pc.onDataChannel(done);
  });
  await page.evaluate(
    (offers) => (globalThis as unknown as { benchSetup(o: boolean): void }).benchSetup(offers),
    nodeOffers,
  );
  const channel = await opened;
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { benchChannel?: { readyState: string } }).benchChannel
        ?.readyState === 'open',
  );
  return { page, pc, channel };
}

/** MiB/s of `bytes` sent by a page to node-datachannel, measured at node from start to last byte. */
export async function bareBrowserToNode(context: BrowserContext, bytes: number): Promise<number> {
  const { page, pc, channel } = await connect(context, false);
  try {
    const arrived = new Promise<number>((resolve) => {
      let received = 0;
      channel.onMessage((message) => {
        received += typeof message === 'string' ? message.length : message.byteLength;
        if (received >= bytes) resolve(performance.now());
      });
    });
    const started = performance.now();
    await page.evaluate(
      (args) => (globalThis as unknown as { benchSend(a: unknown): void }).benchSend(args),
      {
        total: bytes,
        chunk: CHUNK_MAX_BYTES,
        high: SEND_BUFFER_HIGH_WATER_BYTES,
        low: SEND_BUFFER_LOW_WATER_BYTES,
      },
    );
    const finished = await arrived;
    return bytes / 1024 / 1024 / ((finished - started) / 1000);
  } finally {
    channel.close();
    pc.close();
    await page.close();
  }
}

/** MiB/s of `bytes` sent by node-datachannel to a page, measured at node until the page has all. */
export async function bareNodeToBrowser(context: BrowserContext, bytes: number): Promise<number> {
  const { page, pc, channel } = await connect(context, true);
  try {
    return await sendFromNode(page, channel, bytes);
  } finally {
    channel.close();
    pc.close();
    await page.close();
  }
}

/**
 * As bareNodeToBrowser, with the page handing what arrives to the web client's download worker
 * as the web client does, and nothing else: the browser's own cost of saving a streamed file.
 */
export async function bareNodeToBrowserDownload(
  context: BrowserContext,
  webUrl: string,
  bytes: number,
): Promise<number> {
  const { page, pc, channel } = await connect(context, true, webUrl);
  try {
    // The web client registers its worker as it loads; its scope is the folder it is served from.
    const scope = new URL('assets/', webUrl).href;
    // As source text, like the page's half: the DOM's types are not this program's.
    await page.waitForFunction(
      `navigator.serviceWorker.getRegistration(${JSON.stringify(scope)}).then((r) => !!(r && r.active))`,
    );
    const start: StartDownload = {
      type: 'ferry-download-start',
      id: `bench-${randomUUID()}`,
      name: 'bare-channel.bin',
      size: bytes,
    };
    const chunks: DownloadChunk['type'] = 'chunks';
    const end: DownloadChunk = { type: 'end' };
    await page.evaluate(
      (args) =>
        (
          globalThis as unknown as { benchOpenDownload(a: unknown): Promise<void> }
        ).benchOpenDownload(args),
      { scope, start, chunks, end, batchBytes: DOWNLOAD_BATCH_BYTES },
    );
    return await sendFromNode(page, channel, bytes);
  } finally {
    channel.close();
    pc.close();
    await page.close();
  }
}

/** Sends `bytes` from node with Ferry's flow control; MiB/s until the page has them all. */
async function sendFromNode(page: Page, channel: DataChannel, bytes: number): Promise<number> {
  // The page counts from its first message on: its handler is in place before node sends.
  await page.evaluate((total) => {
    const bench = globalThis as unknown as Record<string, unknown> & {
      benchReceive(t: number): Promise<void>;
    };
    bench.benchArrived = bench.benchReceive(total);
  }, bytes);
  const arrived = page.evaluate(
    () => (globalThis as unknown as { benchArrived: Promise<void> }).benchArrived,
  );
  const data = Buffer.alloc(CHUNK_MAX_BYTES);
  let sent = 0;
  channel.setBufferedAmountLowThreshold(SEND_BUFFER_LOW_WATER_BYTES);
  const started = performance.now();
  const pump = (): void => {
    while (sent < bytes) {
      if (channel.bufferedAmount() > SEND_BUFFER_HIGH_WATER_BYTES) return;
      const size = Math.min(CHUNK_MAX_BYTES, bytes - sent);
      channel.sendMessageBinary(size === CHUNK_MAX_BYTES ? data : data.subarray(0, size));
      sent += size;
    }
  };
  channel.onBufferedAmountLow(pump);
  pump();
  await arrived;
  return bytes / 1024 / 1024 / ((performance.now() - started) / 1000);
}
