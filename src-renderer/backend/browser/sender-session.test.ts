import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BROWSER_METADATA_DRAIN_BYTES,
  CHUNK_MAX_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../../../src-shared/protocol/limits';
import type { ByteSource } from './file-streamer';
import { SenderSession, type SendOutcome } from './sender-session';
import { fakeLink, type FakeChannel } from './testing/fake-peer-link';

const MiB = 1024 * 1024;

/** A file of `size` bytes whose byte at offset n is n mod 251. */
function source(size: number): ByteSource & { size: number } {
  return {
    size,
    slice: (start, end) => ({
      arrayBuffer: async () => {
        const bytes = new Uint8Array(Math.max(0, Math.min(end, size) - start));
        for (let i = 0; i < bytes.length; i += 1) bytes[i] = (start + i) % 251;
        return bytes.buffer;
      },
    }),
  };
}

function start(sizes: number[], maxMessageSize?: number) {
  const link = fakeLink(maxMessageSize);
  const outcomes: SendOutcome[] = [];
  const files = sizes.map((size, index) => ({
    id: `file-${index + 1}`,
    fileName: `f${index + 1}.bin`,
    fileSize: size,
  }));
  const session = new SenderSession(
    link,
    { files, local: { pv: 1, pvMin: 1 }, surface: 'browser', remedySurface: 'browser' },
    sizes.map(source),
    {
      changed: () => undefined,
      sent: () => undefined,
      finished: (outcome) => outcomes.push(outcome),
    },
  );
  session.start(false);
  return { channel: link.channel, outcomes, session };
}

const ack = (id: string) => JSON.stringify({ type: 'ack', id, offset: 0, pv: 1, pvMin: 1 });
const types = (channel: FakeChannel) =>
  channel.textFrames.map((text) => (JSON.parse(text) as { type: string }).type);
const dataBytes = (channel: FakeChannel) =>
  channel.binaryFrames.reduce((sum, frame) => sum + frame.byteLength, 0);

describe('the browser sender on its data channel', () => {
  // Simulated time: the driver's buffer polls run in microseconds, and "nothing happened for a
  // while" is a statement about the clock, not a sleep.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends chunks of the negotiated size capped at 256 KiB, from 4 MiB slabs, byte for byte', async () => {
    const { channel } = start([5 * MiB + 123], 1024 * MiB);
    channel.receive(ack('file-1'));
    await vi.waitFor(() => expect(dataBytes(channel)).toBe(5 * MiB + 123));
    const sizes = channel.binaryFrames.map((frame) => frame.byteLength);
    expect(Math.max(...sizes)).toBe(CHUNK_MAX_BYTES);
    const whole = new Uint8Array(5 * MiB + 123);
    let at = 0;
    for (const frame of channel.binaryFrames) {
      whole.set(frame, at);
      at += frame.byteLength;
    }
    expect(whole.every((byte, offset) => byte === offset % 251)).toBe(true);
  });

  it('falls back to 64 KiB chunks when the connection reports no maximum message size', async () => {
    const { channel } = start([300_000]);
    channel.receive(ack('file-1'));
    await vi.waitFor(() => expect(dataBytes(channel)).toBe(300_000));
    expect(channel.binaryFrames.map((frame) => frame.byteLength)).toEqual([
      65_536, 65_536, 65_536, 65_536, 37_856,
    ]);
  });

  it('pauses above 8 MiB buffered and resumes only once the buffer falls below 4 MiB', async () => {
    const { channel } = start([40 * MiB], 262_144);
    channel.receive(ack('file-1'));
    await vi.waitFor(() =>
      expect(channel.bufferedAmount).toBeGreaterThan(SEND_BUFFER_HIGH_WATER_BYTES),
    );
    const paused = dataBytes(channel);
    expect(paused).toBeLessThanOrEqual(SEND_BUFFER_HIGH_WATER_BYTES + CHUNK_MAX_BYTES + 1000);

    channel.drainTo(SEND_BUFFER_LOW_WATER_BYTES);
    await vi.advanceTimersByTimeAsync(1000);
    expect(dataBytes(channel)).toBe(paused);

    channel.drainTo(SEND_BUFFER_LOW_WATER_BYTES - 1);
    await vi.waitFor(() => expect(dataBytes(channel)).toBeGreaterThan(paused));
  });

  it('drains below 64 KiB before the next file’s metadata and to zero before it declares completion', async () => {
    const { channel, outcomes } = start([2 * MiB, 10], 262_144);
    channel.receive(ack('file-1'));
    await vi.waitFor(() => expect(dataBytes(channel)).toBe(2 * MiB));
    expect(types(channel)).toEqual(['metadata']);

    channel.drainTo(BROWSER_METADATA_DRAIN_BYTES);
    await vi.advanceTimersByTimeAsync(1000);
    expect(types(channel)).toEqual(['metadata']);
    channel.drainTo(BROWSER_METADATA_DRAIN_BYTES - 1);
    await vi.waitFor(() => expect(types(channel)).toEqual(['metadata', 'end']));
    // The end frame itself sits in the buffer now, above the mark again.
    channel.drainTo(0);
    await vi.waitFor(() => expect(types(channel)).toEqual(['metadata', 'end', 'metadata']));

    channel.receive(ack('file-2'));
    await vi.waitFor(() => expect(types(channel)).toEqual(['metadata', 'end', 'metadata', 'end']));
    expect(outcomes).toEqual([]);
    channel.drainTo(1);
    // A native receiver's `received` does not end a browser sender's batch.
    channel.receive(new TextEncoder().encode(JSON.stringify({ type: 'received' })));
    await vi.advanceTimersByTimeAsync(1000);
    expect(outcomes).toEqual([]);
    channel.drainTo(0);
    await vi.waitFor(() => expect(outcomes).toEqual([{ ok: true, files: 2, bytes: 2 * MiB + 10 }]));
    await vi.waitFor(() => expect(channel.readyState).toBe('closed'));
  });

  it('fails at once when the receiver closes the channel instead of acknowledging (a decline)', () => {
    const { channel, outcomes } = start([1000]);
    channel.close();
    expect(outcomes).toEqual([
      {
        ok: false,
        failure: { code: 'ERR_PEER_CLOSED', message: 'the other device closed the connection' },
      },
    ]);
  });

  it('shows the refresh remedy when the receiver answers with a version mismatch', () => {
    const { channel, outcomes } = start([1000]);
    const reason =
      'your device (protocol 1) is too old for the other device (protocol 2): update Ferry on your device';
    channel.receive(
      new TextEncoder().encode(JSON.stringify({ type: 'incompatible', reason, pv: 2, pvMin: 2 })),
    );
    expect(outcomes).toHaveLength(1);
    const [outcome] = outcomes;
    expect(outcome.ok ? '' : outcome.failure.message).toMatch(
      /refresh this page to load the latest Ferry/,
    );
  });
});
