import { lstat, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from './test-support/loopback-rig';
import { filesUnder, writeTextFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const rig = useLoopbackRig();

/** A case's own folders: what is sent, where it lands, and where a planted link leads. */
async function folders(name: string) {
  const base = join(rig.scratch.path, name);
  const elsewhere = join(base, 'elsewhere');
  await mkdir(elsewhere, { recursive: true });
  return { source: join(base, 'source'), destination: join(base, 'received'), elsewhere };
}

function sendInto(paths: string[], destination: string) {
  return transferPair(
    rig.server.url,
    { paths, iceServers: [] },
    { destination, iceServers: [], reportBytes: false },
  );
}

const isLink = async (path: string) => (await lstat(path)).isSymbolicLink();

describe('a receiver whose destination holds a planted link', () => {
  it('refuses a file whose folder is a link, tells the sender, and writes nothing anywhere', async () => {
    const { source, destination, elsewhere } = await folders('folder-link');
    await writeTextFile(join(source, 'album', 'x.jpg'), 'holiday photo');
    await mkdir(destination, { recursive: true });
    await symlink(elsewhere, join(destination, 'album'));

    const outcome = await sendInto([join(source, 'album')], destination);

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_DISK' });
    expect(outcome.receiver.phase === 'failed' && outcome.receiver.message).toBe(
      'album/x.jpg could not be written (album in the destination folder is a symbolic link, and Ferry does not save through links)',
    );
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    expect(outcome.sender.phase === 'failed' && outcome.sender.message).toContain(
      'album/x.jpg was discarded',
    );
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(destination)).toEqual(['album']);
    expect(await isLink(join(destination, 'album'))).toBe(true);
  });

  it('refuses a link deeper in the path before creating anything beneath it', async () => {
    const { source, destination, elsewhere } = await folders('deeper-link');
    await writeTextFile(join(source, 'album', '2024', 'summer', 'x.jpg'), 'holiday photo');
    await mkdir(join(destination, 'album'), { recursive: true });
    await symlink(elsewhere, join(destination, 'album', '2024'));

    const outcome = await sendInto([join(source, 'album')], destination);

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_DISK' });
    expect(outcome.receiver.phase === 'failed' && outcome.receiver.message).toContain(
      '(album/2024 in the destination folder is a symbolic link, and Ferry does not save through links)',
    );
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    // Not even the `summer` folder was made through the link.
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('never writes through a link at the file’s own name or its .part’s: the file lands beside them', async () => {
    const { source, destination, elsewhere } = await folders('name-link');
    await writeTextFile(join(source, 'x.jpg'), 'holiday photo');
    await mkdir(destination, { recursive: true });
    await symlink(join(elsewhere, 'x.jpg'), join(destination, 'x.jpg'));
    await symlink(join(elsewhere, 'x.jpg.part'), join(destination, 'x.jpg.part'));

    const outcome = await sendInto([join(source, 'x.jpg')], destination);

    expect(outcome.receiver).toMatchObject({ phase: 'done', files: [{ name: 'x (1).jpg' }] });
    expect(await readFile(join(destination, 'x (1).jpg'), 'utf8')).toBe('holiday photo');
    expect(await isLink(join(destination, 'x.jpg'))).toBe(true);
    expect(await isLink(join(destination, 'x.jpg.part'))).toBe(true);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('refuses a file whose sidecar name is a link, and writes nothing through it', async () => {
    const { source, destination, elsewhere } = await folders('sidecar-link');
    await writeTextFile(join(source, 'x.jpg'), 'holiday photo');
    await mkdir(destination, { recursive: true });
    await symlink(join(elsewhere, 'sidecar'), join(destination, 'x.jpg.part.ferry'));

    const outcome = await sendInto([join(source, 'x.jpg')], destination);

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_DISK' });
    expect(outcome.receiver.phase === 'failed' && outcome.receiver.message).toContain(
      'x.jpg.part.ferry in the destination folder is a symbolic link',
    );
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(destination)).toEqual(['x.jpg.part.ferry']);
  });
});

describe('a sender whose folder holds links', () => {
  it('sends the folder’s own files only, and says which links it left out', async () => {
    const { source, destination, elsewhere } = await folders('sent-links');
    const album = join(source, 'album');
    await writeTextFile(join(album, 'x.jpg'), 'holiday photo');
    await writeTextFile(join(elsewhere, 'secret.txt'), 'private');
    await symlink(join(elsewhere, 'secret.txt'), join(album, 'secret.txt'));
    await symlink(elsewhere, join(album, 'more'));
    const warnings: string[] = [];

    const outcome = await transferPair(
      rig.server.url,
      { paths: [album], iceServers: [] },
      { destination, iceServers: [], reportBytes: false },
      () => undefined,
      (sender) => sender.on('warning', (message) => warnings.push(message)),
    );

    expect(outcome.sender).toMatchObject({ phase: 'done' });
    expect(await filesUnder(destination)).toEqual(['album/x.jpg']);
    expect(warnings).toEqual([
      'Links inside a folder are left out, with what they point to: album/more, album/secret.txt',
    ]);
  });
});
