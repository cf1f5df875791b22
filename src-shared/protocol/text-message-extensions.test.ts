import { describe, expect, it } from 'vitest';
import { readReceiverMessage, readSenderMessage } from './decode-control';
import { encodeControlJson } from './encode';
import { textFrame, type Frame } from './frame';
import { TEXT_MESSAGE_FILE_NAME, TEXT_MESSAGE_MAX_BYTES } from './limits';
import type { Capability } from './messages';
import { createReceiver, type ReceiverAction } from './receiver';
import { createSender, type SenderAction } from './sender';

// docs/protocol.md, "Text messages": the sender's `text` flag beside the capability, and the
// receiver that takes such a batch into memory only when both named `text`.
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const text = (value: unknown): Frame => textFrame(JSON.stringify(value));

const senderCaps = (actions: SenderAction[]) =>
  actions.flatMap((action) =>
    action.type === 'send' && action.frame.kind === 'text'
      ? [JSON.parse(action.frame.text) as Record<string, unknown>]
      : [],
  )[0];

function announced(caps: Capability[], textMessage: boolean) {
  const machine = createSender({
    files: [{ id: 'f-1', fileName: TEXT_MESSAGE_FILE_NAME, fileSize: 5 }],
    caps,
    textMessage,
    local: LOCAL,
    surface: 'native',
    remedySurface: 'cli',
  });
  return senderCaps(machine.handle({ type: 'channel-open', relayed: false }));
}

describe('the text flag on the wire', () => {
  it('is written explicitly, after the other caps fields', () => {
    expect(encodeControlJson({ type: 'ferry-caps', caps: ['text'], name: 'Ana', text: true })).toBe(
      '{"type":"ferry-caps","caps":["text"],"name":"Ana","text":true}',
    );
  });

  it('rides beside `text` in the sender caps of a text message, and only there', () => {
    expect(announced(['verify', 'text'], true)).toEqual({
      type: 'ferry-caps',
      caps: ['verify', 'text'],
      text: true,
    });
    expect(announced(['verify'], true)).toEqual({ type: 'ferry-caps', caps: ['verify'] });
    expect(announced(['verify', 'text'], false)).toEqual({
      type: 'ferry-caps',
      caps: ['verify', 'text'],
    });
  });

  it('reads as true only when it is true, without refusing the caps beside it', () => {
    expect(readSenderMessage({ type: 'ferry-caps', caps: ['text'], text: true })).toEqual({
      kind: 'control',
      message: { type: 'ferry-caps', caps: ['text'], text: true },
    });
    for (const flag of [false, 'true', 1, null, {}]) {
      expect(readSenderMessage({ type: 'ferry-caps', caps: ['text'], text: flag })).toEqual({
        kind: 'control',
        message: { type: 'ferry-caps', caps: ['text'] },
      });
    }
  });

  it('is a sender field: a receiver never tells its sender it sends a text', () => {
    expect(readReceiverMessage({ type: 'ferry-caps', caps: ['text'], text: true })).toEqual({
      kind: 'control',
      message: { type: 'ferry-caps', caps: ['text'] },
    });
  });
});

function metadata(fileName: string, fileSize: number, total = 1) {
  return text({
    type: 'metadata',
    id: 'f-1',
    fileName,
    fileSize,
    index: 1,
    total,
    totalBytes: fileSize,
    pv: 1,
    pvMin: 1,
  });
}

/** What a receiver speaking `caps` does with a batch whose sender's caps were `sent`. */
function received(
  caps: Capability[],
  sent: Record<string, unknown>,
  first: Frame,
  askBeforeAccepting = false,
): ReceiverAction[] {
  const machine = createReceiver({
    surface: 'native',
    caps,
    local: LOCAL,
    remedySurface: 'cli',
    askBeforeAccepting,
    checksFreeSpace: true,
  });
  machine.handle({ type: 'channel-open' });
  machine.handle({ type: 'frame', frame: text({ type: 'ferry-caps', ...sent }) });
  return machine.handle({ type: 'frame', frame: first });
}

const TEXT_CAPS = { caps: ['text', 'resume'], text: true };
const opened = (actions: ReceiverAction[]) => actions.find((action) => action.type === 'open-part');

describe('the receiver of a text message', () => {
  it('opens it in memory, with no free-space reading and no resume, when both named `text`', () => {
    const actions = received(['text', 'resume'], TEXT_CAPS, metadata(TEXT_MESSAGE_FILE_NAME, 5));
    expect(actions.some((action) => action.type === 'read-free-space')).toBe(false);
    expect(opened(actions)).toEqual({
      type: 'open-part',
      index: 0,
      path: TEXT_MESSAGE_FILE_NAME,
      fileSize: 5,
      text: true,
    });
  });

  it('tells the person it is a text message', () => {
    const actions = received(['text'], TEXT_CAPS, metadata(TEXT_MESSAGE_FILE_NAME, 5), true);
    expect(actions).toContainEqual(
      expect.objectContaining({
        type: 'ask-accept',
        offer: expect.objectContaining({ text: true }),
      }),
    );
  });

  it('ignores the flag when it did not name `text` itself: the file is saved as usual', () => {
    const actions = received(['resume'], TEXT_CAPS, metadata(TEXT_MESSAGE_FILE_NAME, 5));
    expect(actions).toContainEqual({ type: 'read-free-space', index: 0 });
  });

  it('saves what only looks like a text message', () => {
    const cases: [Record<string, unknown>, Frame][] = [
      // The sender did not say so.
      [{ caps: ['text'] }, metadata(TEXT_MESSAGE_FILE_NAME, 5)],
      // Another name, more than one file, or more than the limit.
      [TEXT_CAPS, metadata('notes.txt', 5)],
      [TEXT_CAPS, metadata(TEXT_MESSAGE_FILE_NAME, 5, 2)],
      [TEXT_CAPS, metadata(TEXT_MESSAGE_FILE_NAME, TEXT_MESSAGE_MAX_BYTES + 1)],
    ];
    for (const [sent, first] of cases) {
      expect(received(['text'], sent, first)).toContainEqual({
        type: 'read-free-space',
        index: 0,
      });
    }
  });

  it('takes a text of exactly the limit in memory', () => {
    const actions = received(
      ['text'],
      TEXT_CAPS,
      metadata(TEXT_MESSAGE_FILE_NAME, TEXT_MESSAGE_MAX_BYTES),
    );
    expect(opened(actions)).toEqual(expect.objectContaining({ text: true }));
  });
});
