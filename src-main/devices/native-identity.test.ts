import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryOf } from '../../src-shared/devices/remembered-devices';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { transferPair } from '../engine/test-support/transfer-pair';
import { loadNativeIdentity } from './native-identity';

const rig = useLoopbackRig();
const freshFolder = (): Promise<string> => mkdtemp(join(tmpdir(), 'ferry-identity-'));

describe("a native installation's certificate", () => {
  it('is made once and read back the same, readable by its owner only', async () => {
    const folder = await freshFolder();
    const made = await loadNativeIdentity(folder);
    expect(made.fingerprint).toMatch(/^sha-256 [0-9A-F]{2}(?::[0-9A-F]{2}){31}$/);
    expect(await loadNativeIdentity(folder)).toEqual(made);
    expect((await stat(made.pemFile)).mode & 0o777).toBe(0o600);
  });

  it('is one certificate when two programs start at once in a new folder', async () => {
    const folder = await freshFolder();
    const [first, second] = await Promise.all([
      loadNativeIdentity(folder),
      loadNativeIdentity(folder),
    ]);
    expect(second.fingerprint).toBe(first.fingerprint);
  });

  it('is replaced when its file is damaged, rather than failing every transfer', async () => {
    const folder = await freshFolder();
    const made = await loadNativeIdentity(folder);
    const pem = await readFile(made.pemFile, 'utf8');
    // The certificate of one identity with the key of none: they must belong together.
    await writeFile(made.pemFile, pem.replace(/-----BEGIN PRIVATE KEY-----[^]*$/, ''));
    const replaced = await loadNativeIdentity(folder);
    expect(replaced.fingerprint).not.toBe(made.fingerprint);
    expect(await loadNativeIdentity(folder)).toEqual(replaced);
  });

  it('is the certificate the other device sees on the connection', async () => {
    const identity = await loadNativeIdentity(await freshFolder());
    const file = join(rig.scratch.path, 'identity', 'note.txt');
    await writeTextFile(file, 'who sent this');
    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [file],
        iceServers: [],
        identity: {
          pemFile: identity.pemFile,
          devices: { ownName: 'Ana', directory: directoryOf([]) },
        },
      },
      { destination: join(rig.scratch.path, 'identity-received'), iceServers: [] },
    );
    expect(outcome.receiver).toMatchObject({
      phase: 'done',
      peer: { fingerprint: identity.fingerprint },
    });
  });
});
