import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from './test-support/loopback-rig';
import { CLI_UPDATE_COMMAND } from '../../src-shared/protocol';
import {
  filesUnder,
  sha256File,
  writeRandomFile,
  writeTextFile,
} from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';
import { specSend } from '../../test-peers/spec-peer';
import type { OfferView } from '../../src-shared/transfer/transfer-view';
import { receiveFiles, type FinalState } from '.';

const MiB = 1024 * 1024;
const TiB = 1024 * 1024 * MiB;

const rig = useLoopbackRig();

/** A sender whose metadata lies about file `index`; the real bytes still go out. */
function lyingAbout(index: number, told: { fileName?: string; fileSize?: number }) {
  return { announce: (_file: unknown, at: number) => (at === index ? told : {}) };
}

describe('a receiver facing a sender that breaks its word', () => {
  it('discards a file that overruns its announced size, tells the sender why and keeps the files before it', async () => {
    const source = join(rig.scratch.path, 'overrun');
    await writeTextFile(join(source, 'a-honest.txt'), 'honest bytes');
    await writeRandomFile(join(source, 'b-overrun.bin'), 16 * MiB);
    const destination = join(rig.scratch.path, 'overrun-received');

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [join(source, 'a-honest.txt'), join(source, 'b-overrun.bin')],
        iceServers: [],
        testSeam: lyingAbout(1, { fileSize: MiB }),
      },
      { destination, iceServers: [] },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_OVERRUN' });
    // Still streaming the rest when the receiver objects, the sender hears the reason.
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    expect(outcome.sender.phase === 'failed' && outcome.sender.message).toContain(
      'b-overrun.bin was discarded',
    );
    expect(await filesUnder(destination)).toEqual(['a-honest.txt']);
  });

  it('discards a file that ends short of its announced size and leaves no .part behind', async () => {
    const source = join(rig.scratch.path, 'short');
    await writeTextFile(join(source, 'short.bin'), 'only eleven');
    const destination = join(rig.scratch.path, 'short-received');

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [join(source, 'short.bin')],
        iceServers: [],
        testSeam: lyingAbout(0, { fileSize: 5000 }),
      },
      { destination, iceServers: [] },
    );

    // The sender may already count the batch as delivered (its buffer emptied first), as the spec
    // allows; the receiver is the one that must not keep the file.
    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_SIZE_MISMATCH' });
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('keeps traversal and absolute names inside the destination folder', async () => {
    const source = join(rig.scratch.path, 'hostile-names');
    await writeTextFile(join(source, 'one.txt'), 'climbs out');
    await writeTextFile(join(source, 'two.txt'), 'absolute');
    await writeTextFile(join(source, 'three.txt'), 'backslashes');
    const names = ['../../escaped.txt', '/etc/ferry-absolute.txt', '..\\..\\windows.txt'];
    const destination = join(rig.scratch.path, 'inside', 'received');

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: ['one.txt', 'two.txt', 'three.txt'].map((name) => join(source, name)),
        iceServers: [],
        testSeam: { announce: (_file, index) => ({ fileName: names[index] }) },
      },
      { destination, iceServers: [] },
    );

    expect(outcome.receiver.phase).toBe('done');
    const landed = await filesUnder(destination);
    expect(landed).toHaveLength(3);
    expect(landed.every((name) => !name.split('/').includes('..'))).toBe(true);
    expect(await readdir(join(rig.scratch.path, 'inside'))).toEqual(['received']);
    expect(landed).toContain('etc/ferry-absolute.txt');
    expect(await sha256File(join(destination, 'etc/ferry-absolute.txt'))).toBe(
      await sha256File(join(source, 'two.txt')),
    );
  });

  it('with a newer protocol than it speaks: the receiver creates no file and both sides name the remedy', async () => {
    const source = join(rig.scratch.path, 'newer');
    await writeTextFile(join(source, 'future.txt'), 'from the future');
    const destination = join(rig.scratch.path, 'newer-received');

    const outcome = await transferPair(
      rig.server.url,
      { paths: [join(source, 'future.txt')], iceServers: [], protocolVersion: { pv: 2, pvMin: 2 } },
      { destination, iceServers: [] },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_INCOMPATIBLE_VERSION' });
    expect(outcome.receiver.phase === 'failed' && outcome.receiver.message).toContain(
      CLI_UPDATE_COMMAND,
    );
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_INCOMPATIBLE_VERSION' });
    expect(outcome.sender.phase === 'failed' && outcome.sender.message).toContain(
      'Ferry must be updated on the other device',
    );
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('refuses a file announced past the accepted total: the sender hears why, and nothing of it lands', async () => {
    const destination = join(rig.scratch.path, 'past-total-received');
    const offers: OfferView[] = [];
    let received: Promise<FinalState> | undefined;
    // The spec-only peer plays the liar: "2 files, 10 B", then file 2 announced at 1 TiB.
    const sending = specSend({
      serverUrl: rig.server.url,
      files: [
        { name: 'a.txt', bytes: new TextEncoder().encode('12345') },
        { name: 'b.bin', bytes: new TextEncoder().encode('67890') },
      ],
      misannounce: (index) => (index === 2 ? TiB : undefined),
      onCode: (code) => {
        received = receiveFiles({
          serverUrl: rig.server.url,
          code,
          destination,
          iceServers: [],
          remedySurface: 'cli',
          // A native receiver announces its release; the strict peer holds it to that.
          ver: '0.1.0',
          // Room for the lie on disk, so only the accepted total stands in its way.
          testSeam: { freeSpace: async () => ({ freeBytes: 2 * TiB, volumeBytes: 2 * TiB }) },
          onOffer: async (offer) => {
            offers.push(offer);
            return true;
          },
        }).finished;
      },
    });
    const reason =
      'refused file description: file 2 announces 1.1 TB, which takes the batch past the 10 B that were accepted';

    await expect(sending).rejects.toThrow(
      `the receiver sent incompatible (pv 1, pvMin 1): ${reason}`,
    );
    expect(offers).toMatchObject([{ firstFileName: 'a.txt', fileCount: 2, totalBytes: 10 }]);
    expect(await received).toMatchObject({
      phase: 'failed',
      code: 'ERR_BAD_METADATA',
      message: reason,
    });
    // File 1 was within what was accepted; of file 2 there is no file and no .part.
    expect(await filesUnder(destination)).toEqual(['a.txt']);
  });

  it('strips invisible characters and padding from names, so the prompt and the disk show the real name', async () => {
    const destination = join(rig.scratch.path, 'tricky-names-received');
    const offers: OfferView[] = [];
    let received: Promise<FinalState> | undefined;
    const bytes = new TextEncoder().encode('MZ');
    const sending = specSend({
      serverUrl: rig.server.url,
      files: [
        { name: `invoice.pdf${' '.repeat(60)}.exe`, bytes },
        { name: 'photo\u202Egpj.exe', bytes },
        { name: 're\u200Bport\u200D.txt', bytes },
        { name: 'notes\u00A0\u00A0\u3000.txt', bytes },
      ],
      onCode: (code) => {
        received = receiveFiles({
          serverUrl: rig.server.url,
          code,
          destination,
          iceServers: [],
          remedySurface: 'cli',
          ver: '0.1.0',
          onOffer: async (offer) => {
            offers.push(offer);
            return true;
          },
        }).finished;
      },
    });

    await sending;
    expect(await received).toMatchObject({ phase: 'done' });
    expect(offers).toMatchObject([{ firstFileName: 'invoice.pdf .exe', fileCount: 4 }]);
    expect(await filesUnder(destination)).toEqual(
      ['invoice.pdf .exe', 'notes .txt', 'photogpj.exe', 'report.txt'].sort(),
    );
  });

  it("renames a name of Ferry's own bookkeeping, so a sent file never passes for a kept part, a sidecar or the index", async () => {
    const destination = join(rig.scratch.path, 'bookkeeping-received');
    let received: Promise<FinalState> | undefined;
    const bytes = new TextEncoder().encode('{"ferry":"part-sidecar"}');
    const sending = specSend({
      serverUrl: rig.server.url,
      files: [
        { name: 'notes.part', bytes },
        { name: 'notes.part.ferry', bytes },
        { name: '.ferry-received', bytes },
      ],
      onCode: (code) => {
        received = receiveFiles({
          serverUrl: rig.server.url,
          code,
          destination,
          iceServers: [],
          remedySurface: 'cli',
          ver: '0.1.0',
        }).finished;
      },
    });

    await sending;
    expect(await received).toMatchObject({ phase: 'done' });
    expect((await readdir(destination)).sort()).toEqual([
      '.ferry-received_',
      'notes.part.ferry_',
      'notes.part_',
    ]);
  });
});
