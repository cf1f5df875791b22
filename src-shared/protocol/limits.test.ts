import { describe, expect, it } from 'vitest';
import * as limits from './limits';

describe('Limits table of the data-channel spec', () => {
  it.each([
    ['control text frame is at most 1000 bytes', limits.CONTROL_FRAME_MAX_BYTES, 1000],
    ['displayed abort reason is at most 300 characters', limits.DISPLAYED_REASON_MAX_CHARS, 300],
    ['chunk cap is 256 KB', limits.CHUNK_MAX_BYTES, 262_144],
    ['chunk fallback is 16 KB native', limits.CHUNK_FALLBACK_NATIVE_BYTES, 16_384],
    ['chunk fallback is 64 KB browser', limits.CHUNK_FALLBACK_BROWSER_BYTES, 65_536],
    ['send buffer high-water mark is 8 MB', limits.SEND_BUFFER_HIGH_WATER_BYTES, 8_388_608],
    ['send buffer low-water mark is 4 MB', limits.SEND_BUFFER_LOW_WATER_BYTES, 4_194_304],
    ['browser drains below 64 KB before metadata', limits.BROWSER_METADATA_DRAIN_BYTES, 65_536],
    ['browser reads its source in 4 MB slabs', limits.BROWSER_SOURCE_SLAB_BYTES, 4_194_304],
    ['browser waits about 2 s after connecting', limits.BROWSER_CONNECT_DELAY_MS, 2000],
    ['relay size cap is 2 GB', limits.RELAY_SIZE_CAP_BYTES, 2_147_483_648],
    [
      'the native answer advertises a 1 GB max message size',
      limits.SDP_MAX_MESSAGE_SIZE_BYTES,
      1_073_741_824,
    ],
  ])('%s', (_rule, value, expected) => {
    expect(value).toBe(expected);
  });

  it('the low-water mark sits below the high-water mark, or a paused sender never resumes', () => {
    expect(limits.SEND_BUFFER_LOW_WATER_BYTES).toBeLessThan(limits.SEND_BUFFER_HIGH_WATER_BYTES);
  });
});

describe('timeouts enforced by the native engine', () => {
  it.each([
    ["waiting for the peer's offer or answer: 30 s", limits.OFFER_ANSWER_TIMEOUT_MS, 30_000],
    ['ICE, DTLS and data channel opening: 30 s', limits.CONNECT_TIMEOUT_MS, 30_000],
    ['data channel grace after peers connect: 10 s', limits.CHANNEL_GRACE_MS, 10_000],
    ["sender waiting for a file's ack: 120 s", limits.ACK_TIMEOUT_MS, 120_000],
    ["sender's send buffer not draining at all: 60 s", limits.DRAIN_STALL_TIMEOUT_MS, 60_000],
    ['sender waiting for delivery confirmation: 60 s', limits.DELIVERY_TIMEOUT_MS, 60_000],
    ['receiver connected, no data yet: 30 s', limits.RECEIVER_FIRST_DATA_TIMEOUT_MS, 30_000],
    [
      'receiver mid-transfer with no progress: 60 s',
      limits.RECEIVER_NO_PROGRESS_TIMEOUT_MS,
      60_000,
    ],
    ['receiver grace before teardown: 5 s', limits.RECEIVER_TEARDOWN_GRACE_MS, 5000],
    ['byte-count report to the server: 5 s', limits.BYTE_COUNT_REPORT_TIMEOUT_MS, 5000],
    ['flushing an abort reason before close: 2 s', limits.ABORT_REASON_FLUSH_MS, 2000],
    ['fetching relay credentials over HTTP: 30 s', limits.RELAY_CREDENTIALS_TIMEOUT_MS, 30_000],
    [
      'registering or resolving a room code over HTTP: 30 s',
      limits.CODE_REQUEST_TIMEOUT_MS,
      30_000,
    ],
    [
      'client-side role wait after join-room (signaling spec): 20 s',
      limits.ROLE_WAIT_TIMEOUT_MS,
      20_000,
    ],
  ])('%s', (_phase, value, expected) => {
    expect(value).toBe(expected);
  });
});

describe('Versioning rule 1: both protocol numbers are 1 today', () => {
  it('pv is 1', () => {
    expect(limits.PROTOCOL_VERSION).toBe(1);
  });

  it('pvMin is 1', () => {
    expect(limits.PROTOCOL_VERSION_MIN).toBe(1);
  });
});
