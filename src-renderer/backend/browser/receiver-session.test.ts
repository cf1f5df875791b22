import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Offer } from '../../../src-shared/protocol/receiver';
import { ReceiverSession, type ReceiveOutcome } from './receiver-session';
import type { SaveTarget } from './save-target';
import { fakeLink } from './testing/fake-peer-link';

/** Records what the session asks of storage; `failWrites` makes the disk refuse. */
function recordingTarget(failWrites = false) {
  const calls: string[] = [];
  const contents = new Map<string, number[]>();
  const paths = new Map<number, string>();
  const target: SaveTarget = {
    label: 'test',
    async open(index, path, fileSize) {
      calls.push(`open ${path} ${fileSize}`);
      paths.set(index, path);
      contents.set(path, []);
    },
    async write(index, bytes) {
      if (failWrites) throw new Error('disk full');
      contents.get(paths.get(index) ?? '')?.push(...bytes);
    },
    async commit(index) {
      calls.push(`commit ${paths.get(index)}`);
      return `saved/${paths.get(index)}`;
    },
    async discard(index) {
      calls.push(`discard ${paths.get(index)}`);
    },
  };
  return { target, calls, contents };
}

function start() {
  const link = fakeLink(262_144);
  const offers: Offer[] = [];
  const outcomes: ReceiveOutcome[] = [];
  const session = new ReceiverSession(
    link,
    {
      surface: 'browser',
      local: { pv: 1, pvMin: 1 },
      remedySurface: 'browser',
      askBeforeAccepting: true,
    },
    {
      offer: (offer) => offers.push(offer),
      progress: () => undefined,
      finished: (outcome) => outcomes.push(outcome),
    },
  );
  session.start();
  return { channel: link.channel, session, offers, outcomes };
}

const metadata = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: 'metadata',
    id: 'm1',
    fileName: 'a.txt',
    fileSize: 3,
    index: 1,
    total: 1,
    totalBytes: 3,
    pv: 1,
    pvMin: 1,
    ...fields,
  });
const END = JSON.stringify({ type: 'end' });
const decoded = (frame: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(frame)) as Record<string, unknown>;

describe('the browser receiver on its data channel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks first, then acknowledges as text and saves the bytes it was sent', async () => {
    const { channel, session, offers, outcomes } = start();
    const storage = recordingTarget();
    channel.receive(metadata({ fileName: 'photos/a.txt' }));
    expect(offers).toMatchObject([{ fileName: 'photos/a.txt', fileSize: 3, total: 1 }]);
    expect(channel.sent).toEqual([]);

    session.answer(true, storage.target);
    expect(channel.textFrames.map((text) => JSON.parse(text))).toEqual([
      { type: 'ack', id: 'm1', offset: 0, pv: 1, pvMin: 1 },
    ]);
    channel.receive(new Uint8Array([1, 2]));
    channel.receive(new Uint8Array([3]));
    channel.receive(END);
    await vi.waitFor(() =>
      expect(outcomes).toEqual([
        { ok: true, files: [{ name: 'saved/photos/a.txt', size: 3 }], bytes: 3 },
      ]),
    );
    expect(storage.calls).toEqual(['open photos/a.txt 3', 'commit photos/a.txt']);
    expect(storage.contents.get('photos/a.txt')).toEqual([1, 2, 3]);
    // A browser receiver sends no `received`.
    expect(channel.binaryFrames).toEqual([]);
  });

  it('keeps what arrived when the sender announced no usable size', async () => {
    const { channel, session, outcomes } = start();
    const storage = recordingTarget();
    channel.receive(metadata({ fileSize: 'lots' }));
    session.answer(true, storage.target);
    channel.receive(new Uint8Array([9, 9, 9, 9, 9]));
    channel.receive(END);
    await vi.waitFor(() => expect(outcomes).toMatchObject([{ ok: true, bytes: 5 }]));
    expect(storage.calls).toEqual(['open a.txt null', 'commit a.txt']);
  });

  it('answers a version mismatch with incompatible as binary, shows the refresh remedy, and stays open', () => {
    const { channel, offers, outcomes } = start();
    channel.receive(metadata({ pv: 2, pvMin: 2 }));
    expect(offers).toEqual([]);
    expect(channel.textFrames).toEqual([]);
    expect(channel.binaryFrames.map(decoded)).toMatchObject([
      { type: 'incompatible', pv: 1, pvMin: 1 },
    ]);
    expect(outcomes).toHaveLength(1);
    const [outcome] = outcomes;
    expect(outcome.ok ? '' : outcome.failure.message).toMatch(
      /refresh this page to load the latest Ferry/,
    );
    expect(channel.readyState).toBe('open');
  });

  it('declines by closing the channel without a word', async () => {
    const { channel, session, outcomes } = start();
    channel.receive(metadata({}));
    session.answer(false);
    expect(outcomes).toMatchObject([{ ok: false, failure: { code: 'ERR_DECLINED' } }]);
    await vi.waitFor(() => expect(channel.readyState).toBe('closed'));
    expect(channel.sent).toEqual([]);
  });

  it('discards the file and tells the sender when storage refuses a write', async () => {
    const { channel, session, outcomes } = start();
    const storage = recordingTarget(true);
    channel.receive(metadata({}));
    session.answer(true, storage.target);
    channel.receive(new Uint8Array([1, 2, 3]));
    await vi.waitFor(() =>
      expect(outcomes).toMatchObject([{ ok: false, failure: { code: 'ERR_DISK' } }]),
    );
    expect(channel.binaryFrames.map(decoded)).toMatchObject([{ type: 'incompatible' }]);
    await vi.waitFor(() => expect(storage.calls).toEqual(['open a.txt 3', 'discard a.txt']));
  });
});
