import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { EXIT } from './exit-codes';
import { startCli, startCliReceiver } from './test-support/cli-process';
import { shownText } from './shown-text';

// docs/protocol.md, "Text messages", between two command lines.
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const rig = useLoopbackRig();

const codeOf = (line: string): string => CODE_LINE.exec(line)?.[1] ?? '';

/** What follows the `Text:` line of a receiver's output, up to the end. */
function textAfterLabel(stdout: string): string | undefined {
  const lines = stdout.split('\n');
  const label = lines.indexOf('Text:');
  return label === -1 ? undefined : lines.slice(label + 1).join('\n');
}

describe('a text message on the command line', () => {
  it('send --text: the receiver prints it after "Text:" and saves nothing', async () => {
    const destination = join(rig.scratch.path, 'cli-text');
    const sender = startCli([
      'send',
      '--server',
      rig.server.url,
      '--text',
      'hello https://example.com',
    ]);
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = startCliReceiver(rig.server.url, destination, code);
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code).toBe(EXIT.ok);
    expect(received.code).toBe(EXIT.ok);
    expect(received.stdout).toMatch(/^Incoming: a text message, 25 B/m);
    expect(textAfterLabel(received.stdout)).toBe('hello https://example.com\n');
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('send --text - reads the text from standard input', async () => {
    const destination = join(rig.scratch.path, 'cli-text-stdin');
    const sender = startCli(['send', '--server', rig.server.url, '--text', '-']);
    sender.type('two\nlines ✓\n');
    sender.endInput();
    const code = codeOf(await sender.line(CODE_LINE));
    const receiver = startCliReceiver(rig.server.url, destination, code);
    const [sent, received] = await Promise.all([sender.exited, receiver.exited]);

    expect(sent.code).toBe(EXIT.ok);
    expect(received.code).toBe(EXIT.ok);
    expect(textAfterLabel(received.stdout)).toBe('two\nlines ✓\n');
  });

  it('refuses an empty standard input before registering a code', async () => {
    const sender = startCli(['send', '--server', rig.server.url, '--text', '-']);
    sender.endInput();
    const exit = await sender.exited;
    expect(exit.code).toBe(EXIT.usage);
    expect(exit.stderr).toMatch(/^Error: the text is empty\.$/m);
    expect(exit.stdout).not.toMatch(/Code:/);
  });
});

describe('a received text in the terminal', () => {
  it('keeps line breaks and tabs but cannot drive the terminal or become a link', () => {
    const osc8 = '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007';
    expect(shownText(`a\tb\r\nc\n`)).toBe('a\tb\nc');
    expect(shownText(osc8)).not.toMatch(/[\u001b\u0007]/);
    expect(shownText('over\rwrite')).toBe('over\ufffdwrite');
  });
});
