import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryFrame, textFrame } from '../../src-shared/protocol/frame';
import { runReceiveSession } from '../../src-shared/session/receive-session';
import { ManualClock } from '../../src-shared/session/testing/manual-clock';
import { ScriptedChannel } from '../../src-shared/session/testing/scripted-channel';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import {
  downloadMarkFor,
  ZONE_IDENTIFIER_TEXT,
  type DownloadMark,
  type MarkSystem,
} from './download-mark';
import { partFileTarget } from './part-file-target';
import { useLoopbackRig } from './test-support/loopback-rig';
import { filesUnder, writeTextFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const rig = useLoopbackRig();

/** A system that only records what a mark asks of it. */
function recordingSystem(platform: NodeJS.Platform) {
  const written: [path: string, text: string][] = [];
  const ran: [file: string, args: readonly string[]][] = [];
  const system: MarkSystem = {
    platform,
    writeFile: async (path, text) => void written.push([path, text]),
    execFile: async (file, args) => void ran.push([file, args]),
  };
  return { system, written, ran };
}

/** A mark that records each path it is asked to mark, and fails when told to. */
function recordingMark(fails = false) {
  const marked: string[] = [];
  const mark: DownloadMark = {
    async mark(path) {
      marked.push(path);
      if (fails) throw new Error('the volume keeps no attributes');
    },
  };
  return { mark, marked };
}

const RECEIVED_AT = Date.UTC(2025, 0, 2, 3, 4, 5);

describe('the download mark of each platform', () => {
  it('on Windows, writes zone 3 to the file’s Zone.Identifier stream', async () => {
    const { system, written, ran } = recordingSystem('win32');

    await downloadMarkFor(system).mark('C:\\Users\\ana\\Downloads\\setup.exe', {
      receivedAt: RECEIVED_AT,
    });

    expect(written).toEqual([
      [
        'C:\\Users\\ana\\Downloads\\setup.exe:Zone.Identifier',
        '[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=about:internet\r\n',
      ],
    ]);
    expect(ZONE_IDENTIFIER_TEXT).toBe(written[0]?.[1]);
    expect(ran).toEqual([]);
  });

  it('on macOS, sets com.apple.quarantine through /usr/bin/xattr, with the time and Ferry named', async () => {
    const { system, written, ran } = recordingSystem('darwin');

    await downloadMarkFor(system).mark('/Users/ana/Downloads/setup.app', {
      receivedAt: RECEIVED_AT,
    });

    expect(ran).toHaveLength(1);
    const [file, args] = ran[0] ?? ['', []];
    expect(file).toBe('/usr/bin/xattr');
    expect(args).toEqual([
      '-w',
      'com.apple.quarantine',
      expect.any(String),
      '/Users/ana/Downloads/setup.app',
    ]);
    const seconds = Math.floor(RECEIVED_AT / 1000).toString(16);
    expect(args[2]).toMatch(
      new RegExp(
        `^0081;${seconds};Ferry;[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$`,
      ),
    );
    expect(written).toEqual([]);
  });

  it('each macOS mark is its own quarantine event', async () => {
    const { system, ran } = recordingSystem('darwin');
    const mark = downloadMarkFor(system);

    await mark.mark('/a', { receivedAt: RECEIVED_AT });
    await mark.mark('/b', { receivedAt: RECEIVED_AT });

    expect(ran[0]?.[1][2]).not.toBe(ran[1]?.[1][2]);
  });

  it.each(['linux', 'freebsd'] as const)('on %s, leaves the file as it is', async (platform) => {
    const { system, written, ran } = recordingSystem(platform);

    await downloadMarkFor(system).mark('/home/ana/setup.sh', { receivedAt: RECEIVED_AT });

    expect([written, ran]).toEqual([[], []]);
  });
});

describe('a receiver marking what it saves', () => {
  it('marks every file once, under its final name, after it landed, and nothing that did not land', async () => {
    const source = join(rig.scratch.path, 'marked');
    await writeTextFile(join(source, 'album', 'a.jpg'), 'first photo');
    await writeTextFile(join(source, 'album', 'deep', 'b.jpg'), 'second photo');
    await writeTextFile(join(source, 'report.pdf'), 'new report');
    const destination = join(rig.scratch.path, 'marked-received');
    await writeTextFile(join(destination, 'report.pdf'), 'old report');
    const { mark, marked } = recordingMark();
    const landedWhenMarked: boolean[] = [];
    const checking: DownloadMark = {
      async mark(path, origin) {
        landedWhenMarked.push((await readFile(path, 'utf8')).length > 0);
        await mark.mark(path, origin);
      },
    };

    const outcome = await transferPair(
      rig.server.url,
      { paths: [join(source, 'album'), join(source, 'report.pdf')], iceServers: [] },
      { destination, iceServers: [], reportBytes: false, downloadMark: checking },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    expect(marked).toEqual([
      join(destination, 'album', 'a.jpg'),
      join(destination, 'album', 'deep', 'b.jpg'),
      join(destination, 'report (1).pdf'),
    ]);
    expect(landedWhenMarked).toEqual([true, true, true]);
    expect(await filesUnder(destination)).toEqual([
      'album/a.jpg',
      'album/deep/b.jpg',
      'report (1).pdf',
      'report.pdf',
    ]);
  });

  it('never marks a file that failed its check, only the ones saved before it', async () => {
    const source = join(rig.scratch.path, 'unmarked');
    await writeTextFile(join(source, 'a-honest.txt'), 'honest bytes');
    await writeTextFile(join(source, 'b-short.bin'), 'only eleven');
    const destination = join(rig.scratch.path, 'unmarked-received');
    const { mark, marked } = recordingMark();

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [join(source, 'a-honest.txt'), join(source, 'b-short.bin')],
        iceServers: [],
        // The second file is announced longer than it is, so it ends short and is discarded.
        testSeam: { announce: (_file, index) => (index === 1 ? { fileSize: 5000 } : {}) },
      },
      { destination, iceServers: [], reportBytes: false, downloadMark: mark },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_SIZE_MISMATCH' });
    expect(marked).toEqual([join(destination, 'a-honest.txt')]);
    expect(await filesUnder(destination)).toEqual(['a-honest.txt']);
  });

  it('does not mark again a file that a second send finds already whole', async () => {
    const source = join(rig.scratch.path, 'sent-twice');
    await writeTextFile(join(source, 'notes.txt'), 'the same notes');
    const destination = join(rig.scratch.path, 'sent-twice-received');
    const { mark, marked } = recordingMark();
    const sendOnce = () =>
      transferPair(
        rig.server.url,
        { paths: [join(source, 'notes.txt')], iceServers: [] },
        { destination, iceServers: [], reportBytes: false, downloadMark: mark },
      );

    const first = await sendOnce();
    const second = await sendOnce();

    expect([first.receiver.phase, second.receiver.phase]).toEqual(['done', 'done']);
    expect(second.receiver).toMatchObject({ files: [{ name: 'notes.txt', resumedBytes: 14 }] });
    expect(marked).toEqual([join(destination, 'notes.txt')]);
    expect(await filesUnder(destination)).toEqual(['notes.txt']);
  });

  it('keeps a file it could not mark, and warns that it is unmarked', async () => {
    const source = join(rig.scratch.path, 'mark-fails');
    await writeTextFile(join(source, 'setup.exe'), 'an installer');
    const destination = join(rig.scratch.path, 'mark-fails-received');
    const { mark, marked } = recordingMark(true);
    const warnings: string[] = [];

    const outcome = await transferPair(
      rig.server.url,
      { paths: [join(source, 'setup.exe')], iceServers: [] },
      { destination, iceServers: [], reportBytes: false, downloadMark: mark },
      (receiver) => receiver.on('warning', (message) => warnings.push(message)),
    );

    expect(outcome.receiver).toMatchObject({ phase: 'done', files: [{ name: 'setup.exe' }] });
    expect(outcome.sender).toMatchObject({ phase: 'done', confirmed: true });
    expect(marked).toEqual([join(destination, 'setup.exe')]);
    expect(await readFile(join(destination, 'setup.exe'), 'utf8')).toBe('an installer');
    expect(warnings).toEqual([
      'setup.exe was saved, but could not be marked as coming from another device (the volume keeps no attributes), so your system may open it without its usual warning',
    ]);
  });
});

describe('a receiver checking digests before it marks', () => {
  const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest();
  /** One block, so the file digest is the SHA-256 of the block's SHA-256. */
  const digestOf = (text: string) => sha256(sha256(text)).toString('hex');

  /**
   * The session core over a scripted channel, saving into a real `.part` target: a sender that
   * sends `sent` for a.txt and then the digest of `announced`.
   */
  async function receive(destination: string, sent: string, announced: string) {
    const { mark, marked } = recordingMark();
    const channel = new ScriptedChannel(262_144);
    let outcome!: (view: TransferView) => void;
    const final = new Promise<TransferView>((resolve) => (outcome = resolve));
    const finished = runReceiveSession({
      channel,
      clock: new ManualClock(),
      surface: 'native',
      caps: ['verify'],
      local: { pv: 1, pvMin: 1, ver: '1.0.0' },
      remedySurface: 'cli',
      acceptance: {
        ask: false,
        target: partFileTarget(destination, (path) => mark.mark(path, { receivedAt: 0 })),
      },
      publish: (view) => {
        if (view.phase === 'done' || view.phase === 'failed') outcome(view);
      },
      cancelled: new AbortController().signal,
      started: () => undefined,
    });
    const metadata = { type: 'metadata', id: 'm1', fileName: 'a.txt', fileSize: sent.length };
    for (const frame of [
      textFrame('{"type":"ferry-caps","caps":["verify"]}'),
      textFrame(
        JSON.stringify({ ...metadata, index: 1, total: 1, totalBytes: 3, pv: 1, pvMin: 1 }),
      ),
      binaryFrame(new TextEncoder().encode(sent)),
      textFrame('{"type":"end"}'),
      textFrame(JSON.stringify({ type: 'ferry-digest', id: 'm1', sha256: digestOf(announced) })),
    ]) {
      channel.receive(frame);
    }
    const view = await final;
    channel.drainTo(0);
    channel.peerCloses();
    await finished;
    return { view, marked };
  }

  it('marks a file whose digest matches', async () => {
    const destination = join(rig.scratch.path, 'digest-matches');

    const { view, marked } = await receive(destination, 'abc', 'abc');

    expect(view).toMatchObject({ phase: 'done', verified: true });
    expect(marked).toEqual([join(destination, 'a.txt')]);
  });

  it('never marks a file whose digest does not match: it is discarded unmarked', async () => {
    const destination = join(rig.scratch.path, 'digest-differs');

    const { view, marked } = await receive(destination, 'abd', 'abc');

    expect(view).toMatchObject({ phase: 'failed', code: 'ERR_VERIFY_FAILED' });
    expect(marked).toEqual([]);
    expect(await filesUnder(destination)).toEqual([]);
  });
});
