import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../signaling-server';
import { capturingLog } from '../signaling-server/test-support/test-server';
import { startWebHost } from './start-web-host';
import { scratchFolder, writeTextFile } from '../engine/test-support/files-on-disk';
import { transferPair } from '../engine/test-support/transfer-pair';

// A LAN room served over HTTPS with its own certificate (docs/architecture.md, "The LAN room over
// HTTPS"): native peers reach it by pinning that certificate's fingerprint.

let room: RunningServer;
let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  scratch = await scratchFolder();
  room = await startWebHost({
    host: '127.0.0.1',
    port: 0,
    root: scratch.path,
    signaling: { hostCandidatesOnly: true },
    https: { certificateFolder: await mkdtemp(join(tmpdir(), 'ferry-pinned-room-')) },
    log: capturingLog().log,
  });
});
afterAll(async () => {
  await room.close();
  await scratch.remove();
});

describe('a native peer in a LAN room served over HTTPS', () => {
  it('sends and receives through it with the room’s fingerprint pinned', async () => {
    expect(room.url).toMatch(/^https:/);
    const file = join(scratch.path, 'pinned', 'note.txt');
    await writeTextFile(file, 'through the https room');
    const into = join(scratch.path, 'pinned-received');
    const pinned = { iceServers: [], serverCertificate: room.certificateFingerprint };
    const outcome = await transferPair(
      room.url,
      { paths: [file], ...pinned },
      {
        destination: into,
        ...pinned,
      },
    );
    expect(outcome.receiver.phase).toBe('done');
    expect(await readFile(join(into, 'note.txt'), 'utf8')).toBe('through the https room');
  });

  it('refuses the room when it presents another certificate than the pinned one', async () => {
    const file = join(scratch.path, 'impostor', 'note.txt');
    await writeTextFile(file, 'never sent');
    const other = `${'AB:'.repeat(31)}AB`;
    const outcome = await transferPair(
      room.url,
      { paths: [file], iceServers: [], serverCertificate: other },
      { destination: join(scratch.path, 'impostor-received'), iceServers: [] },
    ).catch((error: unknown) => String(error));
    expect(outcome).toMatch(/sender failed first: .*not the expected AB:AB/);
  });

  it('refuses the room unpinned: its certificate is no authority’s', async () => {
    const file = join(scratch.path, 'unpinned', 'note.txt');
    await writeTextFile(file, 'never sent');
    const outcome = await transferPair(
      room.url,
      { paths: [file], iceServers: [] },
      { destination: join(scratch.path, 'unpinned-received'), iceServers: [] },
    ).catch((error: unknown) => String(error));
    expect(outcome).toMatch(/sender failed first/);
  });
});
