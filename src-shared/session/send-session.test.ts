import { describe, expect, it } from 'vitest';
import { binaryFrame } from '../protocol/frame';
import type { Surface } from '../protocol/frame-classification';
import {
  BROWSER_METADATA_DRAIN_BYTES,
  CHUNK_MAX_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../protocol/limits';
import type { TransferView } from '../transfer/transfer-view';
import type { FileSource, SourceReader } from './file-source';
import { runSendSession } from './send-session';
import { ManualClock } from './testing/manual-clock';
import { ScriptedChannel } from './testing/scripted-channel';

const MiB = 1024 * 1024;
const utf8 = new TextEncoder();

/** A file of `size` bytes whose byte at offset n is n mod 251, read in chunks. */
function source(name: string, size: number): FileSource {
  return {
    name,
    size,
    async open(offset, chunkBytes) {
      let position = offset;
      const reader: SourceReader = {
        get done() {
          return position >= size;
        },
        async next() {
          const bytes = new Uint8Array(Math.min(chunkBytes, size - position));
          for (let i = 0; i < bytes.length; i += 1) bytes[i] = (position + i) % 251;
          position += bytes.length;
          return { kind: 'bytes', bytes };
        },
        change: async () => undefined,
        close: async () => undefined,
      };
      return reader;
    },
  };
}

/** Lets every pending promise step run: what the session does next is then on the channel. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function start(sizes: number[], options: { surface?: Surface; maxMessageSize?: number } = {}) {
  const channel = new ScriptedChannel(options.maxMessageSize ?? 0);
  const clock = new ManualClock();
  const views: TransferView[] = [];
  const cancel = new AbortController();
  let started = 0;
  const surface = options.surface ?? 'browser';
  const finished = runSendSession({
    channel,
    clock,
    surface,
    sources: sizes.map((size, index) => source(`f${index + 1}.bin`, size)),
    announced: sizes.map((size, index) => ({
      id: `file-${index + 1}`,
      fileName: `f${index + 1}.bin`,
      fileSize: size,
    })),
    local: surface === 'native' ? { pv: 1, pvMin: 1, ver: '1.0.0' } : { pv: 1, pvMin: 1 },
    remedySurface: surface === 'native' ? 'cli' : 'browser',
    code: 'plum-otter-cask',
    publish: (view) => views.push(view),
    cancelled: cancel.signal,
    started: () => (started += 1),
  });
  return { channel, clock, views, cancel, finished, startedCount: () => started };
}

const ack = (id: string, ver?: string) =>
  binaryFrame(utf8.encode(JSON.stringify({ type: 'ack', id, offset: 0, pv: 1, pvMin: 1, ver })));
const received = binaryFrame(utf8.encode('{"type":"received"}'));
const types = (channel: ScriptedChannel) => channel.messages.map((message) => message.type);
const last = (views: TransferView[]) => views.at(-1);

describe('the session core sending a batch', () => {
  it('sends chunks of the negotiated size capped at 256 KiB, byte for byte', async () => {
    const { channel } = start([5 * MiB + 123], { maxMessageSize: 1024 * MiB });
    await settle();
    channel.receive(ack('file-1'));
    for (let i = 0; i < 50 && channel.dataBytes < 5 * MiB + 123; i += 1) await settle();
    const frames = channel.sent.flatMap((frame) => (frame.kind === 'binary' ? [frame.bytes] : []));
    expect(Math.max(...frames.map((bytes) => bytes.byteLength))).toBe(CHUNK_MAX_BYTES);
    let offset = 0;
    for (const bytes of frames) {
      expect(bytes.every((byte, i) => byte === (offset + i) % 251)).toBe(true);
      offset += bytes.byteLength;
    }
    expect(offset).toBe(5 * MiB + 123);
  });

  it('falls back to 64 KiB chunks in a browser and 16 KiB natively when no maximum is known', async () => {
    for (const [surface, chunk] of [
      ['browser', 65_536],
      ['native', 16_384],
    ] as const) {
      const { channel } = start([100_000], { surface });
      await settle();
      channel.receive(ack('file-1'));
      for (let i = 0; i < 20 && channel.dataBytes < 100_000; i += 1) await settle();
      const sizes = channel.sent.flatMap((f) => (f.kind === 'binary' ? [f.bytes.byteLength] : []));
      expect(sizes[0]).toBe(chunk);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(100_000);
    }
  });

  it('pauses above 8 MiB buffered and resumes only once the buffer falls below 4 MiB', async () => {
    const { channel } = start([40 * MiB], { maxMessageSize: 262_144 });
    await settle();
    channel.receive(ack('file-1'));
    for (let i = 0; i < 100 && channel.bufferedAmount() <= SEND_BUFFER_HIGH_WATER_BYTES; i += 1) {
      await settle();
    }
    await settle();
    const paused = channel.dataBytes;
    expect(channel.bufferedAmount()).toBeGreaterThan(SEND_BUFFER_HIGH_WATER_BYTES);
    expect(paused).toBeLessThanOrEqual(SEND_BUFFER_HIGH_WATER_BYTES + CHUNK_MAX_BYTES + 1000);

    channel.drainTo(SEND_BUFFER_LOW_WATER_BYTES);
    await settle();
    expect(channel.dataBytes).toBe(paused);

    channel.drainTo(SEND_BUFFER_LOW_WATER_BYTES - 1);
    await settle();
    expect(channel.dataBytes).toBeGreaterThan(paused);
  });

  it('in a browser drains below 64 KiB before the next metadata and to zero before completing', async () => {
    const { channel, views, startedCount } = start([2 * MiB, 10], { maxMessageSize: 262_144 });
    await settle();
    expect(last(views)).toEqual({
      phase: 'waiting-for-acceptance',
      direction: 'send',
      code: 'plum-otter-cask',
    });
    expect(startedCount()).toBe(0);
    channel.receive(ack('file-1'));
    for (let i = 0; i < 20 && channel.dataBytes < 2 * MiB; i += 1) await settle();
    // The transfer has started on both ends once the first ack is in: the room may be left.
    expect(startedCount()).toBe(1);
    expect(types(channel)).toEqual(['metadata']);

    channel.drainTo(BROWSER_METADATA_DRAIN_BYTES);
    await settle();
    expect(types(channel)).toEqual(['metadata']);
    channel.drainTo(BROWSER_METADATA_DRAIN_BYTES - 1);
    await settle();
    expect(types(channel)).toEqual(['metadata', 'end']);
    channel.drainTo(0);
    await settle();
    expect(types(channel)).toEqual(['metadata', 'end', 'metadata']);

    channel.receive(ack('file-2'));
    await settle();
    expect(types(channel)).toEqual(['metadata', 'end', 'metadata', 'end']);
    expect(last(views)?.phase).toBe('transferring');
    channel.drainTo(1);
    await settle();
    expect(last(views)?.phase).toBe('transferring');
    channel.drainTo(0);
    await settle();
    expect(last(views)).toEqual({
      phase: 'done',
      direction: 'send',
      files: [
        { name: 'f1.bin', size: 2 * MiB },
        { name: 'f2.bin', size: 10 },
      ],
      totalBytes: 2 * MiB + 10,
    });
    expect(channel.isClosed).toBe(true);
    expect(startedCount()).toBe(1);
  });

  it('fails at once when the receiver closes the channel instead of acknowledging (a decline)', async () => {
    const { channel, views, finished } = start([1000]);
    await settle();
    channel.peerCloses();
    await finished;
    expect(last(views)).toEqual({
      phase: 'failed',
      direction: 'send',
      code: 'ERR_PEER_CLOSED',
      message: 'the other device closed the connection',
    });
  });

  it('shows the refresh remedy when the receiver answers with a version mismatch', async () => {
    const { channel, views, startedCount } = start([1000]);
    await settle();
    const reason = 'your device (protocol 1) is too old for the other device (protocol 2)';
    channel.receive(
      binaryFrame(utf8.encode(JSON.stringify({ type: 'incompatible', reason, pv: 2, pvMin: 2 }))),
    );
    await settle();
    const view = last(views);
    expect(view?.phase === 'failed' && view.message).toMatch(/refresh this page/);
    expect(startedCount()).toBe(1);
  });

  it('cancelling closes the channel and says so', async () => {
    const { cancel, channel, views, finished } = start([1000]);
    await settle();
    cancel.abort();
    await finished;
    expect(last(views)).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
    expect(channel.isClosed).toBe(true);
  });

  describe('delivery confirmation (docs/protocol.md, "Delivery confirmation")', () => {
    async function drained(ver?: string) {
      const run = start([10], { surface: 'native' });
      await settle();
      run.channel.receive(ack('file-1', ver));
      await settle();
      run.channel.drainTo(0);
      await settle();
      return run;
    }

    it('a native sender whose receiver announced ver stays open until received arrives', async () => {
      const { channel, views, clock } = await drained('1.0.0');
      clock.advance(9_999);
      await settle();
      expect(last(views)?.phase).not.toBe('done');
      expect(channel.isClosed).toBe(false);
      channel.receive(received);
      await settle();
      expect(last(views)).toMatchObject({ phase: 'done', confirmed: true });
      expect(channel.isClosed).toBe(true);
    });

    it('without received within 10 s it finishes, saying the batch was not confirmed', async () => {
      const { channel, views, clock } = await drained('1.0.0');
      clock.advance(10_000);
      await settle();
      expect(last(views)).toMatchObject({ phase: 'done', confirmed: false });
      expect(channel.isClosed).toBe(true);
    });

    it('for a receiver that announced no ver, an empty buffer ends the batch as the spec says', async () => {
      const { channel, views } = await drained(undefined);
      expect(last(views)).toMatchObject({ phase: 'done' });
      expect(last(views)).not.toHaveProperty('confirmed');
      expect(channel.isClosed).toBe(true);
    });
  });
});
