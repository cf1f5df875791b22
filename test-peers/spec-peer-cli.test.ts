import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src-main/cli/exit-codes';
import { startCli } from '../src-main/cli/test-support/cli-process';
import { filesUnder, scratchFolder } from '../src-main/engine/test-support/files-on-disk';
import { startLoopbackServer } from '../src-main/engine/test-support/loopback-server';
import type { RunningServer } from '../src-main/signaling-server';
import { specReceive, specSend, type SpecFile, type SpecLog } from './spec-peer';

// The CLI against a peer written from the spec alone (spec-peer.ts), which fails an attempt
// when the other side leaves the room before its own channel is open, offers the instant the
// receiver joins, and insists on sending `received`. Each direction runs a few times: the races
// these catch do not show on every run. No retries anywhere.
const ROUNDS = 3;
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

let server: RunningServer;
let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  server = await startLoopbackServer();
  scratch = await scratchFolder();
});

afterAll(async () => {
  await server.close();
  await scratch.remove();
});

async function writeBytes(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
}

/** Compared by digest: a deep equality over megabytes of elements takes seconds. */
function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function batch(round: number): SpecFile[] {
  return [
    { name: `notes-${round}.txt`, bytes: new TextEncoder().encode(`round ${round}\n`) },
    { name: 'empty.txt', bytes: new Uint8Array() },
    { name: 'album/raw/photo.bin', bytes: new Uint8Array(randomBytes(3 * 1024 * 1024 + 17)) },
  ];
}

describe('the CLI with a strict spec-only peer', () => {
  it('receives what the spec peer sends, the offer made the instant it joined', async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const files = batch(round);
      const destination = join(scratch.path, `from-spec-${round}`);
      const log: SpecLog = [];
      let receiver: ReturnType<typeof startCli> | undefined;
      const sending = specSend({
        serverUrl: server.url,
        files,
        log,
        onCode: (code) => {
          receiver = startCli([
            'receive',
            '--server',
            server.url,
            '--out',
            destination,
            '--yes',
            '--no-report',
            code,
          ]);
        },
      });
      await sending;
      const received = await receiver?.exited;
      expect(received?.code, received?.stderr).toBe(EXIT.ok);
      expect(await filesUnder(destination)).toEqual(files.map((file) => file.name).sort());
      for (const file of files) {
        const arrived = await readFile(join(destination, ...file.name.split('/')));
        expect(digest(arrived)).toBe(digest(file.bytes));
      }
      // A native receiver confirms the batch: the spec peer heard `received`.
      expect(log.at(-1)).toBe('received');
    }
  });

  it('sends to the spec peer, staying in the room until the peer has its channel and answering received', async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const source = join(scratch.path, `to-spec-${round}`);
      const files = batch(round);
      for (const file of files) await writeBytes(join(source, ...file.name.split('/')), file.bytes);
      const sender = startCli([
        'send',
        '--server',
        server.url,
        ...files.map((file) => join(source, file.name.split('/')[0])),
      ]);
      const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
      const destination = join(scratch.path, `spec-received-${round}`);
      const log: SpecLog = [];
      const saved = await specReceive({ serverUrl: server.url, code, folder: destination, log });
      const sent = await sender.exited;
      expect(sent.code, sent.stderr).toBe(EXIT.ok);
      // Confirmed by the receiver: the CLI does not say "not confirmed".
      expect(sent.stdout).toMatch(/^Delivered 3 files .*\)\.$/m);
      expect(saved.sort()).toEqual(files.map((file) => file.name).sort());
      for (const file of files) {
        const arrived = await readFile(join(destination, ...file.name.split('/')));
        expect(digest(arrived)).toBe(digest(file.bytes));
      }
      expect(log).toContain('received sent');
    }
  });
});
