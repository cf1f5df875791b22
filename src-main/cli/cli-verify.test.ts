import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendFiles } from '../engine';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { filesUnder, writeTextFile } from '../engine/test-support/files-on-disk';
import { EXIT } from './exit-codes';
import { startCli } from './test-support/cli-process';

// docs/protocol.md, "Verification words", as a person at each command line sees them.
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const VERIFY_LINE = /^Verify: /;
const RUN_LINE = /^On the other device run: ferry receive ([a-z-]+) --key=([A-Za-z0-9_-]{22})$/;
const WORDS_LINE = /^Verify: [a-z]+ [a-z]+ [a-z]+ \(check the other device shows the same words\)$/;

const rig = useLoopbackRig();

/** How long the sending person looks at the words before answering. */
const PERSON_THINKS_MS = 1000;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const codeOf = (line: string): string => CODE_LINE.exec(line)?.[1] ?? '';
const verifyLines = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => VERIFY_LINE.test(line));

/** The stdout lines before the first one `pattern` matches. */
function linesBefore(stdout: string, pattern: RegExp): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => pattern.test(line));
  return at < 0 ? lines : lines.slice(0, at);
}

function receive(destination: string, code: string, ...flags: string[]) {
  return startCli([
    'receive',
    '--server',
    rig.server.url,
    '--out',
    destination,
    '--no-report',
    ...flags,
    code,
  ]);
}

describe('the command line and the verification words', () => {
  it('prints one Verify line on each side, the same words, before any file data; --verify "y" sends', async () => {
    const file = join(rig.scratch.path, 'cli-words', 'note.txt');
    await writeTextFile(file, 'compare first');
    const destination = join(rig.scratch.path, 'cli-words-received');

    const sender = startCli(['send', '--server', rig.server.url, '--verify', file]);
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = receive(destination, code, '--yes');
    await sender.line(/\[y\/N\]/);
    sender.type('y\n');
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code, sent.stderr).toBe(EXIT.ok);
    expect(received.code, received.stderr).toBe(EXIT.ok);
    const [senderLine] = verifyLines(sent.stdout);
    expect(verifyLines(sent.stdout)).toEqual([expect.stringMatching(WORDS_LINE)]);
    expect(verifyLines(received.stdout)).toEqual([senderLine]);
    // Printed before the first progress line, and on the sender before its question.
    expect(linesBefore(received.stdout, /^Receiving /)).toContain(senderLine);
    expect(linesBefore(sent.stdout, /^Sending /)).toContain(senderLine);
    expect(sent.stdout.indexOf(senderLine)).toBeLessThan(
      sent.stdout.indexOf('Do the words match on the other device? [y/N]'),
    );
    expect(await filesUnder(destination)).toEqual(['note.txt']);
  });

  it('the sender with --verify answered "n" sends no file data and exits as declined', async () => {
    const file = join(rig.scratch.path, 'cli-sender-no', 'note.txt');
    await writeTextFile(file, 'never sent');
    const destination = join(rig.scratch.path, 'cli-sender-no-received');

    const sender = startCli(['send', '--server', rig.server.url, '--verify', file]);
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = receive(destination, code, '--yes');
    await sender.line(/\[y\/N\]/);
    // The person looks at the words a while (the receiver's ack is in long before), unless a
    // byte reaches the receiver first, which must not happen.
    await Promise.race([
      receiver.line(/^Receiving /).catch(() => undefined),
      delay(PERSON_THINKS_MS),
    ]);
    sender.type('n\n');
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code, sent.stdout).toBe(EXIT.declined);
    expect(sent.stdout).toContain('Stopped: the words were not confirmed, so no file data moved.');
    expect(sent.stderr).toMatch(/The verification words were not confirmed/);
    expect(received.code).toBe(EXIT.failed);
    expect(received.stderr).toMatch(/did not confirm the verification words/);
    expect(received.stdout).not.toMatch(/^Receiving /m);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('the receiver with --verify answered "n" accepts nothing, and the sender hears it at once', async () => {
    const file = join(rig.scratch.path, 'cli-receiver-no', 'note.txt');
    await writeTextFile(file, 'never accepted');
    const destination = join(rig.scratch.path, 'cli-receiver-no-received');

    const sender = startCli(['send', '--server', rig.server.url, file]);
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = receive(destination, code, '--verify');
    await receiver.line(/^Verify: /);
    await receiver.line(/Do the words match on the other device\? \[y\/N\]/);
    receiver.type('n\n');
    const [received, sent] = await Promise.all([receiver.exited, sender.exited]);

    expect(received.code).toBe(EXIT.declined);
    // Asked about the words only: no "Save to" question followed the "no".
    expect(received.stdout).not.toContain('Save to');
    // The "no" is a decline, said to the sender (docs/protocol.md, "Named outcomes").
    expect(sent.code).toBe(EXIT.declined);
    expect(sent.stderr).toContain('Declined by the other person.');
    expect(sent.stdout).not.toMatch(/^Sending /m);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('with --verify, a peer that cannot show words is not confirmed: stopped before any file data', async () => {
    const file = join(rig.scratch.path, 'cli-unverifiable', 'note.txt');
    await writeTextFile(file, 'from a plain peer');
    const destination = join(rig.scratch.path, 'cli-unverifiable-received');

    // A sender whose extensions are off announces nothing, like a spec-only or older peer.
    const sender = sendFiles({
      serverUrl: rig.server.url,
      paths: [file],
      remedySurface: 'cli',
      extensions: false,
    });
    const code = await new Promise<string>((resolve) =>
      sender.on('state', (state) => state.phase === 'waiting-for-peer' && resolve(state.code)),
    );
    const [received] = await Promise.all([
      receive(destination, code, '--yes', '--verify').exited,
      sender.finished,
    ]);

    expect(verifyLines(received.stdout)).toEqual([
      'Verify: not available — the other device was not verified',
    ]);
    expect(received.stdout).toContain(
      'Stopped: --verify needs verification words, and the other device cannot show them.',
    );
    expect(received.code).toBe(EXIT.declined);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('with the sender’s link, both sides print that the secret link verified them, and --verify asks nothing', async () => {
    const file = join(rig.scratch.path, 'cli-link', 'note.txt');
    await writeTextFile(file, 'proved by the link');
    const destination = join(rig.scratch.path, 'cli-link-received');

    const sender = startCli(['send', '--server', rig.server.url, '--verify', file]);
    const [, code, key] = RUN_LINE.exec(await sender.line(RUN_LINE)) ?? [];
    const link = `${rig.server.url}/#receive=${code}&key=${key}`;
    const receiver = receive(destination, link, '--yes', '--verify');
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code, sent.stderr).toBe(EXIT.ok);
    expect(received.code, received.stderr).toBe(EXIT.ok);
    const linked = ['Verify: verified automatically by the secret link'];
    expect(verifyLines(sent.stdout)).toEqual(linked);
    expect(verifyLines(received.stdout)).toEqual(linked);
    expect(sent.stdout).not.toContain('[y/N]');
    expect(received.stdout).not.toContain('[y/N]');
    expect(await filesUnder(destination)).toEqual(['note.txt']);
  });
});
