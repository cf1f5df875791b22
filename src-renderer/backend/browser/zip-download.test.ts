import { describe, expect, it, vi } from 'vitest';
import { binaryFrame, textFrame, type Frame } from '../../../src-shared/protocol/frame';
import { runReceiveSession } from '../../../src-shared/session/receive-session';
import { ManualClock } from '../../../src-shared/session/testing/manual-clock';
import { ScriptedChannel } from '../../../src-shared/session/testing/scripted-channel';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import { zipDownloadTarget, type ZipSink } from './zip-download';

/** A download as the page feeds it: every byte written, and how it ended. */
function fakeDownload() {
  const chunks: Uint8Array[] = [];
  const download = {
    started: [] as string[],
    ended: false,
    aborted: undefined as string | undefined,
    cancelled: false,
    bytes: () => {
      const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.byteLength;
      }
      return all;
    },
  };
  const sink: ZipSink = {
    write: (bytes) => void chunks.push(bytes.slice()),
    end: () => void (download.ended = true),
    abort: (reason) => void (download.aborted = reason),
    get cancelled() {
      return download.cancelled;
    },
  };
  const start = (name: string): Promise<ZipSink> => {
    download.started.push(name);
    return Promise.resolve(sink);
  };
  return { download, start };
}

/** Every stored entry of an archive, read from its central directory: path → content. */
function entriesOf(zip: Uint8Array): Record<string, string> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: Record<string, string> = {};
  for (let index = 0; index < count; index += 1) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    expect(view.getUint16(at + 10, true)).toBe(0); // stored, no compression
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    entries[name] = new TextDecoder().decode(zip.subarray(data, data + size));
    at += 46 + nameLength + extraLength + view.getUint16(at + 32, true);
  }
  return entries;
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('a batch saved as one .zip in the browser’s downloads', () => {
  it('streams every file into one download, folders kept, and ends it with the last commit', async () => {
    const { download, start } = fakeDownload();
    const target = zipDownloadTarget({
      name: 'album.zip',
      fileCount: 3,
      label: 'Downloads',
      start,
    });
    expect(target.downloads).toEqual({ archive: 'album.zip' });

    await target.open(0, 'album/raw/2024/one.cr2', 9);
    void target.write(0, text('raw '));
    void target.write(0, text('bytes'));
    expect(await target.commit(0)).toEqual({ name: 'album/raw/2024/one.cr2' });
    await target.open(1, 'album/empty.txt', 0);
    await target.commit(1);
    expect(download.ended).toBe(false);
    await target.open(2, 'album/é.txt', 2);
    void target.write(2, text('ok'));
    await target.commit(2);

    expect(download).toMatchObject({ started: ['album.zip'], ended: true, aborted: undefined });
    expect(entriesOf(download.bytes())).toEqual({
      'album/raw/2024/one.cr2': 'raw bytes',
      'album/empty.txt': '',
      'album/é.txt': 'ok',
    });
    // The transfer's end finds the archive complete and leaves it alone.
    target.release?.();
    expect(download.aborted).toBeUndefined();
  });

  it('gives up the whole download when a file is discarded (a failed digest), never ending it', async () => {
    const { download, start } = fakeDownload();
    const target = zipDownloadTarget({
      name: 'album.zip',
      fileCount: 2,
      label: 'Downloads',
      start,
    });
    await target.open(0, 'album/good.txt', 4);
    void target.write(0, text('good'));
    await target.commit(0);
    await target.open(1, 'album/bad.txt', 3);
    void target.write(1, text('bad'));
    await target.discard(1, false);

    await expect.poll(() => download.aborted).toBe('a file of the archive was discarded');
    expect(download.ended).toBe(false);
    await expect(target.open(1, 'album/bad.txt', 3)).rejects.toThrow('discarded');
  });

  it('gives up a download the transfer left unfinished between two files', async () => {
    const { download, start } = fakeDownload();
    const target = zipDownloadTarget({
      name: 'ferry.zip',
      fileCount: 5,
      label: 'Downloads',
      start,
    });
    await target.open(0, 'one.txt', 1);
    void target.write(0, text('1'));
    await target.commit(0);
    target.release?.();

    await expect
      .poll(() => download.aborted)
      .toBe('the transfer ended before the archive was complete');
    expect(download.ended).toBe(false);
  });

  it('stops when the person cancels the download in the browser', async () => {
    const { download, start } = fakeDownload();
    const target = zipDownloadTarget({
      name: 'ferry.zip',
      fileCount: 2,
      label: 'Downloads',
      start,
    });
    await target.open(0, 'one.txt', 2);
    void target.write(0, text('1'));
    download.cancelled = true;
    await expect(target.write(0, text('2'))).rejects.toThrow('cancelled in the browser');
  });
});

describe('the session core receiving into a .zip', () => {
  const utf8 = (value: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(value);
  const hex = (bytes: ArrayBuffer): string =>
    Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
  /** One block, so the file digest is the SHA-256 of the block's SHA-256. */
  const digestOf = async (content: string): Promise<string> =>
    hex(
      await crypto.subtle.digest('SHA-256', await crypto.subtle.digest('SHA-256', utf8(content))),
    );
  const json = (message: Record<string, unknown>): Frame => textFrame(JSON.stringify(message));
  const file = (index: number, path: string, content: string, digest: string): Frame[] => [
    json({
      type: 'metadata',
      id: `m${index}`,
      fileName: path,
      fileSize: content.length,
      index,
      total: 2,
      totalBytes: 7,
      pv: 1,
      pvMin: 1,
    }),
    binaryFrame(text(content)),
    json({ type: 'end' }),
    json({ type: 'ferry-digest', id: `m${index}`, sha256: digest }),
  ];

  it('gives up the download when a file fails its digest: ERR_VERIFY_FAILED, no finished .zip', async () => {
    const { download, start } = fakeDownload();
    const target = zipDownloadTarget({
      name: 'album.zip',
      fileCount: 2,
      label: 'Downloads',
      start,
    });
    const channel = new ScriptedChannel(262_144);
    const views: TransferView[] = [];
    void runReceiveSession({
      channel,
      clock: new ManualClock(),
      surface: 'browser',
      caps: ['verify'],
      local: { pv: 1, pvMin: 1 },
      remedySurface: 'browser',
      acceptance: { ask: false, target },
      publish: (view) => views.push(view),
      cancelled: new AbortController().signal,
      started: () => undefined,
    });
    channel.receive(json({ type: 'ferry-caps', caps: ['verify'] }));
    for (const frame of [
      ...file(1, 'album/good.txt', 'good', await digestOf('good')),
      ...file(2, 'album/raw/bad.txt', 'bad', await digestOf('bat')),
    ]) {
      channel.receive(frame);
    }

    await vi.waitFor(() => expect(views.at(-1)).toMatchObject({ phase: 'failed' }));
    expect(views.at(-1)).toMatchObject({
      code: 'ERR_VERIFY_FAILED',
      message: expect.stringContaining('album/raw/bad.txt was discarded'),
    });
    await vi.waitFor(() => expect(download.aborted).toBe('a file of the archive was discarded'));
    expect(download.ended).toBe(false);
  });
});
