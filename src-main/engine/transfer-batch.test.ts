import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from './test-support/loopback-rig';
import { COLLISION_NUMBERED_TRIES } from '../../src-shared/names';
import { STATS_PATH } from '../../src-shared/signaling/endpoints';
import type { StatsTotal } from '../../src-shared/signaling/http-api';
import {
  filesUnder,
  sha256File,
  writeRandomFile,
  writeTextFile,
} from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const MiB = 1024 * 1024;

const rig = useLoopbackRig();

async function counterTotal(serverUrl: string): Promise<number> {
  const response = await fetch(new URL(STATS_PATH, serverUrl));
  return ((await response.json()) as StatsTotal).totalBytes;
}

describe('a batch between two engines through a real signaling server', () => {
  it('arrives byte-identical: nested folders, an empty file, a Unicode name and 64 MiB of random bytes, with no .part left', async () => {
    const source = join(rig.scratch.path, 'batch-source');
    const album = join(source, 'album');
    await writeTextFile(join(album, 'notes.txt'), 'first file\n');
    await writeTextFile(join(album, 'deep', 'deeper', 'leaf.md'), '# leaf\n');
    await writeFile(join(album, 'empty.dat'), '');
    await writeTextFile(join(album, 'Ünïcødé 文件 🚀.txt'), 'named in many scripts\n');
    const big = join(source, 'random.bin');
    await writeRandomFile(big, 64 * MiB);
    const destination = join(rig.scratch.path, 'batch-received');

    const outcome = await transferPair(
      rig.server.url,
      { paths: [album, big], iceServers: [] },
      { destination, iceServers: [] },
    );

    expect(outcome.sender).toMatchObject({ phase: 'done', totalBytes: 64 * MiB + 11 + 7 + 22 });
    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    const received = await filesUnder(destination);
    expect(received).toEqual(
      [
        'album/deep/deeper/leaf.md',
        'album/empty.dat',
        'album/notes.txt',
        'album/Ünïcødé 文件 🚀.txt',
        'random.bin',
      ].sort(),
    );
    for (const name of received.filter((file) => file !== 'random.bin')) {
      expect(await sha256File(join(destination, name))).toBe(await sha256File(join(source, name)));
    }
    expect(await sha256File(join(destination, 'random.bin'))).toBe(await sha256File(big));
    // The receiver reported the batch to the server's anonymous counter before it finished.
    expect(await counterTotal(rig.server.url)).toBe(64 * MiB + 11 + 7 + 22);
  });

  it('never overwrites: names already taken get a numbered suffix, inside folders too', async () => {
    const source = join(rig.scratch.path, 'collide-source');
    await writeTextFile(join(source, 'report.pdf'), 'new report');
    await writeTextFile(join(source, 'docs', 'archive.tar.gz'), 'new archive');
    const destination = join(rig.scratch.path, 'collide-received');
    await writeTextFile(join(destination, 'report.pdf'), 'old report');
    await writeTextFile(join(destination, 'docs', 'archive.tar.gz'), 'old archive');

    const paths = [join(source, 'report.pdf'), join(source, 'docs')];
    const first = await transferPair(
      rig.server.url,
      { paths, iceServers: [] },
      { destination, iceServers: [] },
    );
    // On the spec's wire alone, so that the copies Ferry received the first time are not skipped.
    const second = await transferPair(
      rig.server.url,
      { paths, iceServers: [], extensions: false },
      { destination, iceServers: [] },
    );

    expect([first.receiver.phase, second.receiver.phase]).toEqual(['done', 'done']);
    expect(await filesUnder(destination)).toEqual([
      'docs/archive (1).tar.gz',
      'docs/archive (2).tar.gz',
      'docs/archive.tar.gz',
      'report (1).pdf',
      'report (2).pdf',
      'report.pdf',
    ]);
    expect(await readFile(join(destination, 'report.pdf'), 'utf8')).toBe('old report');
    expect(await readFile(join(destination, 'report (1).pdf'), 'utf8')).toBe('new report');
    expect(await readFile(join(destination, 'docs', 'archive.tar.gz'), 'utf8')).toBe('old archive');
  });

  it('gives 300 files of one name 300 free names: numbered up to the cap, then random, nothing overwritten', async () => {
    const source = join(rig.scratch.path, 'same-name-source');
    const count = 300;
    const contents = Array.from({ length: count }, (_, n) => `contents of file ${n}`);
    const paths = contents.map((_, n) => join(source, `file-${n}.txt`));
    await Promise.all(paths.map((path, n) => writeTextFile(path, contents[n] ?? '')));
    const destination = join(rig.scratch.path, 'same-name-received');
    await writeTextFile(join(destination, 'same.txt'), 'was here first');

    const outcome = await transferPair(
      rig.server.url,
      { paths, iceServers: [], testSeam: { announce: () => ({ fileName: 'same.txt' }) } },
      { destination, iceServers: [], reportBytes: false },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    const landed = await filesUnder(destination);
    expect(landed).toHaveLength(count + 1);
    expect(await readFile(join(destination, 'same.txt'), 'utf8')).toBe('was here first');
    const numbered = Array.from(
      { length: COLLISION_NUMBERED_TRIES },
      (_, n) => `same (${n + 1}).txt`,
    );
    expect(landed).toEqual(expect.arrayContaining(numbered));
    const rest = landed.filter((name) => name !== 'same.txt' && !numbered.includes(name));
    expect(rest).toHaveLength(count - COLLISION_NUMBERED_TRIES);
    for (const name of rest) expect(name).toMatch(/^same \([0-9a-z]{6}\)\.txt$/);
    const arrived = await Promise.all(
      landed
        .filter((name) => name !== 'same.txt')
        .map((name) => readFile(join(destination, name), 'utf8')),
    );
    expect(arrived.sort()).toEqual([...contents].sort());
  });

  it('stops when a file changes while it is sent: the sender says so, the receiver is told why and keeps nothing', async () => {
    const file = join(rig.scratch.path, 'changing', 'live.log');
    await writeRandomFile(file, 32 * MiB);
    const destination = join(rig.scratch.path, 'changing-received');
    let appended = false;

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [] },
      { destination, iceServers: [], reportBytes: false },
      (receiver) =>
        receiver.on('state', (state) => {
          if (state.phase !== 'transferring' || appended) return;
          appended = true;
          void appendFile(file, 'one more line\n');
        }),
    );

    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_SOURCE_CHANGED' });
    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    expect(outcome.receiver.phase === 'failed' && outcome.receiver.message).toContain(
      'live.log changed on the sending device',
    );
    expect(await filesUnder(destination)).toEqual([]);
  });
});
