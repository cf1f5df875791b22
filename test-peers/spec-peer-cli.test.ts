import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src-main/cli/exit-codes';
import { startCli, type CliProcess } from '../src-main/cli/test-support/cli-process';
import { filesUnder, scratchFolder } from '../src-main/engine/test-support/files-on-disk';
import { startLoopbackServer } from '../src-main/engine/test-support/loopback-server';
import { startSender } from '../src-main/engine/test-support/transfer-pair';
import type { RunningServer } from '../src-main/signaling-server';
import { SpecPeerError, specReceive, specSend } from './spec-peer/index';

// The command-line peer against the strict spec-only peer (test-peers/spec-peer/), which offers
// the instant the receiver joins, fails an attempt when the other side leaves the room before
// its own channel is open, and holds a native peer to `received`. Each direction runs several
// times in one test: the races this hunts do not show on every run. Nothing is retried and
// nothing waits on a clock: each step waits for the previous one's outcome.
const ROUNDS = 3;
const ROUNDS_TIMEOUT_MS = 180_000;
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
/** Every round opens sockets and asks for codes from one address. */
const GENEROUS = { maxConnectionsPerIp: 10_000, maxCodeRequestsPerIp: 10_000 };

let server: RunningServer;
let scratch: Awaited<ReturnType<typeof scratchFolder>>;

beforeAll(async () => {
  server = await startLoopbackServer(GENEROUS);
  scratch = await scratchFolder();
});

afterAll(async () => {
  await server.close();
  await scratch.remove();
});

interface BatchFile {
  name: string;
  bytes: Uint8Array;
}

/** A small text, an empty file and a file two folders down, different every round. */
function batch(round: number): BatchFile[] {
  return [
    { name: 'notes.txt', bytes: new TextEncoder().encode(`round ${round}\n`) },
    { name: 'empty.txt', bytes: new Uint8Array() },
    { name: 'dir/sub/photo.bin', bytes: new Uint8Array(randomBytes(3 * 1024 * 1024 + round)) },
  ];
}

/** Compared by digest: an element-wise comparison of megabytes takes seconds. */
function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function expectSameFiles(folder: string, files: readonly BatchFile[]): Promise<void> {
  expect(await filesUnder(folder)).toEqual(files.map((file) => file.name).sort());
  for (const file of files) {
    const arrived = await readFile(join(folder, ...file.name.split('/')));
    expect(digest(arrived), file.name).toBe(digest(file.bytes));
  }
}

/** What the CLI prints, on either side, of a peer that cannot show verification words. */
const NOT_VERIFIED = 'Verify: not available — the other device was not verified';

/** The CLI's Verify lines, which it prints exactly once before any file data moves. */
function verifyLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('Verify: '));
}

/** The message types a spec peer ignored as unknown, in order. */
function unknownTypes(steps: readonly string[]): string[] {
  return steps.flatMap(
    (step) => /ignored a message of unknown type "([^"]*)"/.exec(step)?.[1] ?? [],
  );
}

describe('the CLI with the strict spec-only peer', () => {
  it(
    'receives a batch from the spec peer, which offers the instant the CLI joins',
    async () => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const files = batch(round);
        const destination = join(scratch.path, `from-spec-${round}`);
        let receiver: CliProcess | undefined;
        const sent = await specSend({
          serverUrl: server.url,
          files,
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
        const received = await receiver?.exited;
        expect(received?.code, `${received?.stdout}\n${received?.stderr}`).toBe(EXIT.ok);
        // A native receiver announces its release and confirms the batch with `received`.
        expect(sent.receiverVer).toBeDefined();
        expect(sent.confirmed, sent.steps.join('\n')).toBe(true);
        // A sender that announced no extension hears nothing but the spec: acks at offset 0
        // (the spec peer refuses any other), `received`, no message of a type it does not know,
        // though the CLI shows it the offer first (no early `ferry-caps` asking for a list or
        // carrying a `sas` nonce), and the CLI says plainly that it could not verify it.
        expect(unknownTypes(sent.steps)).toEqual([]);
        expect(verifyLines(received?.stdout ?? '')).toEqual([NOT_VERIFIED]);
        await expectSameFiles(destination, files);
      }
    },
    ROUNDS_TIMEOUT_MS,
  );

  // A key is a requirement (docs/protocol.md, "Secret link"): a sender that cannot prove it is
  // refused before its first ack, whoever it is.
  it('refuses the spec peer when given a link’s key: told why in the spec’s words, nothing written', async () => {
    const destination = join(scratch.path, 'from-spec-with-key');
    let receiver: CliProcess | undefined;
    const refused = await specSend({
      serverUrl: server.url,
      files: batch(1),
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
          '--key=q83vEjRWeJCrze8SNFZ4kA',
        ]);
      },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const received = await receiver?.exited;

    expect(received?.code, `${received?.stdout}\n${received?.stderr}`).toBe(EXIT.failed);
    expect(received?.stderr).toContain(
      'Someone may be intercepting this connection (the other device did not prove the link’s secret)',
    );
    expect(refused).toBeInstanceOf(SpecPeerError);
    const steps = refused instanceof SpecPeerError ? refused.steps : [];
    expect(refused instanceof Error && refused.message, steps.join('\n')).toMatch(
      /the receiver sent incompatible .*holds the secret key of a link, and this device did not prove it/,
    );
    expect(unknownTypes(steps)).toEqual([]);
    // No file, no .part, no sidecar.
    expect(await filesUnder(destination)).toEqual([]);
  });

  it(
    'sends a batch to the spec peer, which answers at once and sends received',
    async () => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const files = batch(round);
        const source = join(scratch.path, `to-spec-${round}`);
        for (const file of files) {
          const path = join(source, ...file.name.split('/'));
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, file.bytes);
        }
        const sender = startCli([
          'send',
          '--server',
          server.url,
          join(source, 'notes.txt'),
          join(source, 'empty.txt'),
          join(source, 'dir'),
        ]);
        const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
        const destination = join(scratch.path, `spec-received-${round}`);
        const received = await specReceive({ serverUrl: server.url, code, dir: destination });
        const sent = await sender.exited;

        expect(sent.code, `${sent.stdout}\n${sent.stderr}`).toBe(EXIT.ok);
        expect(received.senderVer).toBeDefined();
        expect(received.saved.map((file) => file.name)).toEqual(files.map((file) => file.name));
        // The spec peer got as far as sending `received` on a channel still open, and the CLI
        // took it as the confirmation (no "not confirmed" in its summary).
        expect(received.receivedSent, received.steps.join('\n')).toBe(true);
        expect(sent.stdout).toMatch(/^Delivered 3 files \([^)]*\)\.$/m);
        // The one new frame a spec receiver sees is the sender's announcement, which it ignores
        // (its `sas` commitment rides inside it): it never asks for the file list or gives a
        // nonce, so no `ferry-list` and no `ferry-sas-reveal` follows, and the CLI prints that
        // the receiver was not verified.
        expect(unknownTypes(received.steps)).toEqual(['ferry-caps']);
        expect(verifyLines(sent.stdout)).toEqual([NOT_VERIFIED]);
        await expectSameFiles(destination, files);
      }
    },
    ROUNDS_TIMEOUT_MS,
  );

  it('with --verify, stops before any file data: a spec receiver cannot show words to confirm', async () => {
    const source = join(scratch.path, 'to-spec-verify');
    await mkdir(source, { recursive: true });
    await writeFile(join(source, 'notes.txt'), 'never sent');
    const sender = startCli([
      'send',
      '--server',
      server.url,
      '--verify',
      join(source, 'notes.txt'),
    ]);
    const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
    const destination = join(scratch.path, 'spec-verify-received');
    const refused = await specReceive({ serverUrl: server.url, code, dir: destination }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const sent = await sender.exited;

    expect(sent.code, `${sent.stdout}\n${sent.stderr}`).toBe(EXIT.declined);
    expect(verifyLines(sent.stdout)).toEqual([NOT_VERIFIED]);
    expect(sent.stdout).toContain(
      'Stopped: --verify needs verification words, and the other device cannot show them.',
    );
    // The spec receiver acked, and was then told why in the spec's own words; no byte came.
    expect(refused).toBeInstanceOf(SpecPeerError);
    const steps = refused instanceof SpecPeerError ? refused.steps : [];
    expect(refused instanceof Error && refused.message).toMatch(
      /did not confirm the verification words/,
    );
    expect(steps.some((step) => /saved file/.test(step))).toBe(false);
    expect(unknownTypes(steps)).toEqual(['ferry-caps']);
    expect(await filesUnder(destination)).toEqual([]);
  });

  // docs/protocol.md, "Named outcomes": toward a peer that announced nothing, a person's choice
  // is the spec's plain close, with no `ferry-outcome` before it.
  it('declines the spec peer’s offer with the plain close: no ferry-outcome reaches it', async () => {
    const destination = join(scratch.path, 'declined-from-spec');
    let receiver: CliProcess | undefined;
    const refused = await specSend({
      serverUrl: server.url,
      files: batch(1),
      onCode: (code) => {
        receiver = startCli(['receive', '--server', server.url, '--out', destination, code]);
        void receiver.line(/\[y\/N\]/).then(() => receiver?.type('n\n'));
      },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const declined = await receiver?.exited;

    expect(declined?.code, `${declined?.stdout}\n${declined?.stderr}`).toBe(EXIT.declined);
    expect(refused).toBeInstanceOf(SpecPeerError);
    const steps = refused instanceof SpecPeerError ? refused.steps : [];
    expect(refused instanceof Error && refused.message, steps.join('\n')).toMatch(
      /closed the channel while file 1 waited for its ack/,
    );
    expect(unknownTypes(steps)).toEqual([]);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('stops a send to the spec peer mid-file with the plain close: no ferry-outcome reaches it', async () => {
    const source = join(scratch.path, 'stopped-to-spec');
    await mkdir(source, { recursive: true });
    await writeFile(join(source, 'big.bin'), randomBytes(32 * 1024 * 1024));
    const { sender, code } = await startSender(server.url, {
      paths: [join(source, 'big.bin')],
      iceServers: [],
    });
    sender.on('state', (state) => {
      if (state.phase === 'transferring' && state.progress.bytesDone > 0) sender.cancel();
    });
    const refused = await specReceive({
      serverUrl: server.url,
      code,
      dir: join(scratch.path, 'stopped-spec-received'),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(await sender.finished).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
    expect(refused).toBeInstanceOf(SpecPeerError);
    const steps = refused instanceof SpecPeerError ? refused.steps : [];
    // The one frame of Ferry's it ever saw is the announcement it ignored.
    expect(unknownTypes(steps)).toEqual(['ferry-caps']);
  });
});

describe('a text message to the spec-only peer', () => {
  it('arrives as message.txt holding exactly the text in UTF-8', async () => {
    const text = 'Grüße — https://example.com/?a=1&b=2 ✓\r\nline two';
    const sender = startCli(['send', '--server', server.url, '--text', text]);
    const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
    const destination = join(scratch.path, 'spec-text');
    const received = await specReceive({ serverUrl: server.url, code, dir: destination });
    const sent = await sender.exited;

    expect(sent.code, `${sent.stdout}\n${sent.stderr}`).toBe(EXIT.ok);
    // The text flag rides in the one frame a spec receiver ignores: nothing else is new to it.
    expect(unknownTypes(received.steps)).toEqual(['ferry-caps']);
    expect(await filesUnder(destination)).toEqual(['message.txt']);
    const bytes = await readFile(join(destination, 'message.txt'));
    expect(digest(bytes)).toBe(digest(new TextEncoder().encode(text)));
  });
});
