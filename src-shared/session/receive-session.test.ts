import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Capability } from '../protocol/messages';
import { binaryFrame, textFrame, type Frame } from '../protocol/frame';
import type { Surface } from '../protocol/frame-classification';
import type { TransferView } from '../transfer/transfer-view';
import { runReceiveSession } from './receive-session';
import type { SaveTarget } from './save-target';
import { FREE_SPACE_RESERVE_MIN_BYTES } from '../protocol/limits';
import { formatBytes } from '../format/format-bytes';
import { ManualClock } from './testing/manual-clock';
import { ScriptedChannel } from './testing/scripted-channel';

/**
 * Records what the session asks of storage. Like the native part files, its writes settle only
 * when the file is committed or discarded, so a session that waited for a write before going on
 * would never finish.
 */
function recordingTarget(fail: { writes?: boolean; commits?: boolean } = {}) {
  const calls: string[] = [];
  const contents = new Map<string, number[]>();
  const paths = new Map<number, string>();
  const pending = new Map<number, (() => void)[]>();
  const target: SaveTarget = {
    async open(index, path, fileSize) {
      calls.push(`open ${path} ${fileSize}`);
      paths.set(index, path);
      contents.set(path, []);
    },
    write(index, bytes) {
      if (fail.writes) return Promise.reject(new Error('disk full'));
      contents.get(paths.get(index) ?? '')?.push(...bytes);
      return new Promise<void>((resolve) =>
        pending.set(index, [...(pending.get(index) ?? []), resolve]),
      );
    },
    async commit(index) {
      for (const stored of pending.get(index) ?? []) stored();
      if (fail.commits) throw new Error('rename refused');
      calls.push(`commit ${paths.get(index)}`);
      return { name: `saved/${paths.get(index)}` };
    },
    async discard(index) {
      for (const stored of pending.get(index) ?? []) stored();
      calls.push(`discard ${paths.get(index)}`);
    },
  };
  return { target, calls, contents };
}

/** A link's secret, as the receive link carries it. */
const KEY = 'AAAAAAAAAAAAAAAAAAAAAA';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function start(
  surface: Surface,
  storage: ReturnType<typeof recordingTarget>,
  answer: 'auto' | 'accept' | 'decline' = 'accept',
  caps: readonly Capability[] = [],
  linkSecret?: string,
) {
  const channel = new ScriptedChannel(262_144);
  const views: TransferView[] = [];
  let started = 0;
  const finished = runReceiveSession({
    channel,
    clock: new ManualClock(),
    surface,
    caps,
    ...(linkSecret === undefined ? {} : { linkSecret, randomBytes: () => new Uint8Array(32) }),
    local: surface === 'native' ? { pv: 1, pvMin: 1, ver: '1.0.0' } : { pv: 1, pvMin: 1 },
    remedySurface: surface === 'native' ? 'cli' : 'browser',
    acceptance:
      answer === 'auto'
        ? { ask: false, target: storage.target }
        : {
            ask: true,
            destination: async () => 'Downloads',
            choose: async () => (answer === 'accept' ? storage.target : undefined),
          },
    publish: (view) => views.push(view),
    cancelled: new AbortController().signal,
    started: () => (started += 1),
  });
  return { channel, views, finished, startedCount: () => started };
}

const metadata = (fields: Record<string, unknown> = {}): Frame =>
  textFrame(
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
    }),
  );
const END = textFrame('{"type":"end"}');
const data = (text: string): Frame => binaryFrame(new TextEncoder().encode(text));
const readable = (frame: Frame | undefined): Record<string, unknown> =>
  frame === undefined
    ? {}
    : (JSON.parse(
        frame.kind === 'text' ? frame.text : new TextDecoder().decode(frame.bytes),
      ) as Record<string, unknown>);
const last = (views: TransferView[]) => views.at(-1);

describe('the session core receiving a batch', () => {
  it('asks first, then acknowledges as text in a browser and saves the bytes it was sent', async () => {
    const storage = recordingTarget();
    const { channel, views, startedCount } = start('browser', storage);
    channel.receive(metadata());
    await settle();
    expect(views).toContainEqual({
      phase: 'awaiting-acceptance',
      direction: 'receive',
      offer: {
        firstFileName: 'a.txt',
        fileCount: 1,
        totalBytes: 3,
        peerCheck: { kind: 'unverified' },
      },
      destination: 'Downloads',
    });
    expect(channel.sent).toHaveLength(1);
    expect(channel.sent[0].kind).toBe('text');
    expect(readable(channel.sent[0])).toMatchObject({ type: 'ack', id: 'm1', offset: 0 });
    expect(startedCount()).toBe(1);
    channel.receive(data('abc'));
    channel.receive(END);
    await settle();
    expect(storage.calls).toEqual(['open a.txt 3', 'commit a.txt']);
    expect(storage.contents.get('a.txt')).toEqual([97, 98, 99]);
    expect(last(views)).toEqual({
      phase: 'done',
      direction: 'receive',
      files: [{ name: 'saved/a.txt', size: 3 }],
      totalBytes: 3,
    });
  });

  it('natively acknowledges as binary only once the file is open, and sends received after every commit', async () => {
    const storage = recordingTarget();
    const { channel, views, startedCount } = start('native', storage, 'auto');
    channel.receive(metadata({ total: 2, totalBytes: 3 }));
    await settle();
    expect(storage.calls).toEqual(['open a.txt 3']);
    expect(channel.sent.map((frame) => frame.kind)).toEqual(['binary']);
    expect(startedCount()).toBe(1);
    channel.receive(data('abc'));
    channel.receive(END);
    channel.receive(
      metadata({ id: 'm2', fileName: 'b.txt', fileSize: 0, index: 2, total: 2, totalBytes: 3 }),
    );
    channel.receive(END);
    await settle();
    expect(storage.calls).toEqual(['open a.txt 3', 'commit a.txt', 'open b.txt 0', 'commit b.txt']);
    expect(channel.sent.map((frame) => readable(frame).type)).toEqual(['ack', 'ack', 'received']);
    expect(last(views)).toMatchObject({ phase: 'done', totalBytes: 3 });
    expect(startedCount()).toBe(1);
  });

  // Ferry's choice (docs/protocol.md, "Per-file sequence"): a page reads a missing size as 0, so
  // a sender cannot hand it unbounded bytes.
  it('in a browser discards a file announced without a usable size at its first byte', async () => {
    const storage = recordingTarget();
    const { channel, views } = start('browser', storage);
    channel.receive(metadata({ fileSize: 'unknown' }));
    await settle();
    channel.receive(data('hello'));
    channel.receive(END);
    await settle();
    expect(storage.calls).toEqual(['open a.txt 0', 'discard a.txt']);
    expect(storage.contents.get('a.txt') ?? []).toHaveLength(0);
    expect(channel.sent.map((frame) => readable(frame))).toContainEqual(
      expect.objectContaining({
        type: 'incompatible',
        reason: 'a.txt was discarded: your device announced no usable size for it',
      }),
    );
    expect(last(views)).toMatchObject({ phase: 'failed', code: 'ERR_SIZE_MISMATCH' });
  });

  it('with a key, refuses a sender that announced nothing before anything is opened', async () => {
    const storage = recordingTarget();
    const { channel, views } = start('browser', storage, 'accept', ['verify', 'sas', 'link'], KEY);
    channel.receive(metadata());
    await settle();
    expect(storage.calls).toEqual([]);
    expect(last(views)).toMatchObject({ phase: 'failed', code: 'ERR_LINK_MISMATCH' });
  });

  it('with a key it cannot prove (extensions turned off, it offers nothing), is served as without one', async () => {
    const storage = recordingTarget();
    const { channel, views } = start('browser', storage, 'accept', [], KEY);
    channel.receive(metadata());
    await settle();
    expect(last(views)).not.toMatchObject({ phase: 'failed' });
    expect(readable(channel.sent[0])).toMatchObject({ type: 'ack', id: 'm1', offset: 0 });
  });

  it('answers a version mismatch with incompatible as binary and shows the refresh remedy', async () => {
    const storage = recordingTarget();
    const { channel, views, startedCount } = start('browser', storage);
    channel.receive(metadata({ pv: 3, pvMin: 3 }));
    await settle();
    expect(channel.sent.map((frame) => frame.kind)).toEqual(['binary']);
    expect(readable(channel.sent[0])).toMatchObject({ type: 'incompatible' });
    const view = last(views);
    expect(view?.phase === 'failed' && view.message).toMatch(/refresh this page/);
    expect(storage.calls).toEqual([]);
    expect(startedCount()).toBe(1);
  });

  it('declines by closing the channel without a word', async () => {
    const storage = recordingTarget();
    const { channel, views, finished } = start('browser', storage, 'decline');
    channel.receive(metadata());
    await finished;
    expect(channel.sent).toEqual([]);
    expect(channel.isClosed).toBe(true);
    expect(last(views)).toMatchObject({ phase: 'failed', code: 'ERR_DECLINED' });
  });

  it('discards the file and tells the sender when storage refuses a write', async () => {
    const storage = recordingTarget({ writes: true });
    const { channel, views } = start('browser', storage);
    channel.receive(metadata());
    await settle();
    channel.receive(data('abc'));
    await settle();
    expect(storage.calls).toEqual(['open a.txt 3', 'discard a.txt']);
    expect(channel.sent.map((frame) => readable(frame).type)).toEqual(['ack', 'incompatible']);
    expect(last(views)).toMatchObject({ phase: 'failed', code: 'ERR_DISK' });
  });

  it('a commit that fails after the file ended stops the batch with ERR_DISK and commits nothing', async () => {
    const storage = recordingTarget({ commits: true });
    const { channel, views } = start('native', storage, 'auto');
    channel.receive(metadata());
    await settle();
    channel.receive(data('abc'));
    channel.receive(END);
    await settle();
    expect(storage.calls).toEqual(['open a.txt 3']);
    expect(channel.sent.map((frame) => readable(frame).type)).toEqual(['ack']);
    expect(last(views)).toMatchObject({ phase: 'failed', code: 'ERR_DISK' });
    expect(channel.isClosed).toBe(true);
  });
});

describe('the session core verifying what arrived (docs/protocol.md, "Verification")', () => {
  const CAPS = textFrame('{"type":"ferry-caps","caps":["verify","resume"]}');
  const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();
  /** One block, so the file digest is the SHA-256 of the block's SHA-256. */
  const digestOf = (text: string) => sha256(sha256(text)).toString('hex');
  const digest = (hex: string): Frame =>
    textFrame(JSON.stringify({ type: 'ferry-digest', id: 'm1', sha256: hex }));
  const sentTypes = (channel: ScriptedChannel) => channel.sent.map((f) => readable(f).type);

  it('commits a file whose digest matches, then confirms it before received', async () => {
    const storage = recordingTarget();
    const { channel, views } = start('native', storage, 'auto', ['verify']);
    for (const frame of [CAPS, metadata(), data('abc'), END, digest(digestOf('abc'))]) {
      channel.receive(frame);
    }
    await vi.waitFor(() => expect(last(views)).toMatchObject({ phase: 'done', verified: true }));

    expect(storage.calls).toEqual(['open a.txt 3', 'commit a.txt']);
    expect(sentTypes(channel)).toEqual(['ferry-caps', 'ack', 'ferry-verified', 'received']);
    expect(last(views)).toMatchObject({ files: [{ name: 'saved/a.txt', verified: true }] });
  });

  it('discards a file whose digest does not match, never commits it, and tells the sender why', async () => {
    const storage = recordingTarget();
    const { channel, views } = start('native', storage, 'auto', ['verify']);
    for (const frame of [CAPS, metadata(), data('abd'), END, digest(digestOf('abc'))]) {
      channel.receive(frame);
    }
    await vi.waitFor(() => expect(last(views)).toMatchObject({ phase: 'failed' }));

    expect(last(views)).toMatchObject({ code: 'ERR_VERIFY_FAILED' });
    expect(storage.calls).toEqual(['open a.txt 3', 'discard a.txt']);
    await vi.waitFor(() => expect(sentTypes(channel)).toContain('incompatible'));
    // Neither a confirmation nor `received`: the sender must not think the file arrived.
    expect(sentTypes(channel)).toEqual(['ferry-caps', 'ack', 'incompatible']);
    expect(readable(channel.sent.at(-1)).reason).toBe(
      'a.txt was discarded: what arrived did not match the digest your device sent',
    );
  });

  it('waits for the digest after end: a file is not committed on its byte count alone', async () => {
    const storage = recordingTarget();
    const { channel } = start('native', storage, 'auto', ['verify']);
    for (const frame of [CAPS, metadata(), data('abc'), END]) channel.receive(frame);
    await settle();

    expect(storage.calls).toEqual(['open a.txt 3']);
  });

  it('does not announce resume or reconnect when the chosen target cannot keep a partial file', async () => {
    for (const answer of ['auto', 'accept'] as const) {
      const storage = recordingTarget();
      const caps = ['verify', 'resume', 'reconnect'] as const;
      const { channel } = start('browser', storage, answer, caps);
      for (const frame of [CAPS, metadata()]) channel.receive(frame);
      await vi.waitFor(() => expect(sentTypes(channel)).toContain('ack'));

      expect(readable(channel.sent[0])).toEqual({ type: 'ferry-caps', caps: ['verify'] });
    }
  });

  it('speaks only the spec to a sender that announced nothing', async () => {
    const storage = recordingTarget();
    const { channel, views } = start('native', storage, 'auto', ['verify', 'resume']);
    for (const frame of [metadata(), data('abc'), END]) channel.receive(frame);
    await vi.waitFor(() => expect(last(views)).toMatchObject({ phase: 'done' }));

    expect(sentTypes(channel)).toEqual(['ack', 'received']);
    expect(readable(channel.sent[0]).offset).toBe(0);
    expect(last(views)).not.toHaveProperty('verified');
  });
});

describe('the session core before anything is written (docs/protocol.md, "File list", "Free space")', () => {
  const sentTypes = (channel: ScriptedChannel) => channel.sent.map((f) => readable(f).type);

  /** A receive whose person answers only when the test says so, into `target`. */
  function asking(target: SaveTarget, caps: readonly Capability[]) {
    const channel = new ScriptedChannel(262_144);
    const views: TransferView[] = [];
    let started = 0;
    let answer: (accept: boolean) => void = () => undefined;
    void runReceiveSession({
      channel,
      clock: new ManualClock(),
      surface: 'native',
      caps,
      local: { pv: 1, pvMin: 1, ver: '1.0.0' },
      remedySurface: 'cli',
      acceptance: {
        ask: true,
        destination: async () => 'Downloads',
        choose: () =>
          new Promise((resolve) => (answer = (accept) => resolve(accept ? target : undefined))),
      },
      publish: (view) => views.push(view),
      cancelled: new AbortController().signal,
      started: () => (started += 1),
    });
    return {
      channel,
      views,
      startedCount: () => started,
      answer: (accept: boolean) => answer(accept),
    };
  }

  it('asks the sender for its list without counting that as the start, and shows each file flagged', async () => {
    const storage = recordingTarget();
    const { channel, views, startedCount, answer } = asking(storage.target, ['verify', 'list']);
    channel.receive(textFrame('{"type":"ferry-caps","caps":["verify","list"]}'));
    channel.receive(metadata({ total: 2, totalBytes: 5 }));
    await vi.waitFor(() => expect(sentTypes(channel)).toEqual(['ferry-caps']));
    expect(startedCount()).toBe(0);
    channel.receive(
      textFrame(
        JSON.stringify({
          type: 'ferry-list',
          files: [
            { name: 'a.txt', size: 3 },
            { name: 'tools/.config/setup.EXE', size: 2 },
          ],
          more: false,
        }),
      ),
    );
    await vi.waitFor(() => expect(last(views)).toMatchObject({ phase: 'awaiting-acceptance' }));
    expect(last(views)).toMatchObject({
      offer: {
        firstFileName: 'a.txt',
        fileCount: 2,
        files: [
          { name: 'a.txt', size: 3, hidden: false, executable: false },
          { name: 'tools/.config/setup.EXE', size: 2, hidden: true, executable: true },
        ],
      },
    });
    answer(true);
    await vi.waitFor(() => expect(sentTypes(channel)).toEqual(['ferry-caps', 'ack']));
    expect(startedCount()).toBe(1);
  });

  it('refuses a batch that would leave less than the reserve free, and opens nothing', async () => {
    const sizes = `this needs 5 B and ${formatBytes(FREE_SPACE_RESERVE_MIN_BYTES + 4)} is free, of which ${formatBytes(FREE_SPACE_RESERVE_MIN_BYTES)} is kept free for the system`;
    const storage = recordingTarget();
    const target: SaveTarget = {
      ...storage.target,
      folder: '/media/usb',
      // The volume is small enough that the reserve is its floor, 1 GiB: 4 bytes beyond it.
      freeSpace: async () => ({ freeBytes: FREE_SPACE_RESERVE_MIN_BYTES + 4, volumeBytes: 1e9 }),
    };
    const { channel, views, answer } = asking(target, []);
    channel.receive(metadata({ total: 2, totalBytes: 5 }));
    await vi.waitFor(() => expect(last(views)).toMatchObject({ phase: 'awaiting-acceptance' }));
    answer(true);
    await vi.waitFor(() => expect(last(views)).toMatchObject({ phase: 'failed' }));

    expect(last(views)).toEqual({
      phase: 'failed',
      direction: 'receive',
      code: 'ERR_DISK_FULL',
      message: `not enough free space in /media/usb: ${sizes}`,
      // Nothing arrived, which the history keeps.
      arrived: [],
    });
    await vi.waitFor(() => expect(sentTypes(channel)).toEqual(['incompatible']));
    expect(readable(channel.sent[0]).reason).toBe(
      `the receiving device does not have enough free space: ${sizes}`,
    );
    expect(storage.calls).toEqual([]);
  });
});
