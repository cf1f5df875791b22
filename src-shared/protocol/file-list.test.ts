import { describe, expect, it } from 'vitest';
import { encodeFileList } from './file-list';
import { binaryFrame, frameByteLength, textFrame, type Frame } from './frame';
import { classifyFrameFromSender } from './frame-classification';
import { CONTROL_FRAME_MAX_BYTES, LIST_MAX_FILES, LIST_WAIT_MS } from './limits';
import type { Capability, ListedFile } from './messages';
import {
  createReceiver,
  type ReceiverAction,
  type ReceiverConfig,
  type ReceiverMachine,
} from './receiver';
import { createSender, type SenderAction, type SenderFile } from './sender';

// docs/protocol.md, "File list": the sender lists every file before a person is asked, and the
// receiver holds each later metadata to what the person was shown.
const utf8 = new TextEncoder();
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const CAPS: Capability[] = ['verify', 'resume', 'reconnect', 'list'];
const text = (value: unknown): Frame => textFrame(JSON.stringify(value));
const fromNative = (value: unknown): Frame => binaryFrame(utf8.encode(JSON.stringify(value)));

const FILES: SenderFile[] = [
  { id: 'f-1', fileName: 'notes.txt', fileSize: 5 },
  { id: 'f-2', fileName: 'photos/.hidden/run.sh', fileSize: 4 },
  { id: 'f-3', fileName: 'photos/b.jpg', fileSize: 1 },
];
const TOTAL_BYTES = 10;

function metadata(index: number, fields: Record<string, unknown> = {}): Frame {
  const file = FILES[index];
  return text({
    type: 'metadata',
    id: file.id,
    fileName: file.fileName,
    fileSize: file.fileSize,
    index: index + 1,
    total: FILES.length,
    totalBytes: TOTAL_BYTES,
    ...LOCAL,
    ...fields,
  });
}

const list = (files: ListedFile[], more = false): Frame =>
  text({ type: 'ferry-list', files, more });
const LISTED: ListedFile[] = FILES.map((file) => ({ name: file.fileName, size: file.fileSize }));

/** Every control message among the frames, as the other side reads them. */
function messages(actions: readonly (ReceiverAction | SenderAction)[]): Record<string, unknown>[] {
  return actions.flatMap((action) => {
    if (action.type !== 'send') return [];
    const frame = action.frame;
    const json = frame.kind === 'text' ? frame.text : new TextDecoder().decode(frame.bytes);
    return [JSON.parse(json) as Record<string, unknown>];
  });
}

const types = (actions: readonly (ReceiverAction | SenderAction)[]) =>
  messages(actions).map((message) => message.type);

describe('encoding a file list', () => {
  it('packs the files in order into frames within 1000 bytes, the last one saying no more', () => {
    const files = Array.from({ length: 120 }, (_, index) => ({
      name: `folder/${'é'.repeat(index % 40)}-${index}.bin`,
      size: index * 1000,
    }));
    const frames = encodeFileList(files);
    expect(frames.length).toBeGreaterThan(1);
    const read = frames.map((frame) => {
      expect(frameByteLength(frame)).toBeLessThanOrEqual(CONTROL_FRAME_MAX_BYTES);
      const reading = classifyFrameFromSender(frame, 'native');
      if (reading.kind !== 'control' || reading.message.type !== 'ferry-list') {
        throw new Error(`not a list frame: ${JSON.stringify(reading)}`);
      }
      return reading.message;
    });
    expect(read.map((message) => message.more)).toEqual([
      ...Array.from({ length: frames.length - 1 }, () => true),
      false,
    ]);
    expect(read.flatMap((message) => message.files)).toEqual(files);
  });

  it(`lists at most ${LIST_MAX_FILES} files`, () => {
    const files = Array.from({ length: LIST_MAX_FILES + 3 }, (_, index) => ({
      name: `${index}`,
      size: 1,
    }));
    const listed = encodeFileList(files).flatMap((frame) =>
      frame.kind === 'text' ? (JSON.parse(frame.text) as { files: ListedFile[] }).files : [],
    );
    expect(listed).toHaveLength(LIST_MAX_FILES);
  });

  it('ends the list before a name too long for a frame of its own', () => {
    const frames = encodeFileList([
      { name: 'a.txt', size: 1 },
      { name: 'x'.repeat(CONTROL_FRAME_MAX_BYTES), size: 1 },
      { name: 'c.txt', size: 1 },
    ]);
    expect(frames).toEqual([list([{ name: 'a.txt', size: 1 }])]);
  });
});

describe('the sender lists its files when a receiver about to ask wants them', () => {
  function sending(caps: Capability[] = CAPS) {
    const machine = createSender({
      files: FILES,
      caps,
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
    });
    machine.handle({ type: 'channel-open', relayed: false });
    return machine;
  }

  it('answers caps naming list with the list, as text, before any ack', () => {
    const actions = sending().handle({
      type: 'frame',
      frame: fromNative({ type: 'ferry-caps', caps: CAPS }),
    });
    expect(actions.every((action) => action.type === 'send' && action.frame.kind === 'text')).toBe(
      true,
    );
    expect(messages(actions)).toEqual([{ type: 'ferry-list', files: LISTED, more: false }]);
  });

  it('lists only once, though a receiver may answer again before its ack', () => {
    const machine = sending();
    machine.handle({ type: 'frame', frame: fromNative({ type: 'ferry-caps', caps: CAPS }) });
    const again = fromNative({ type: 'ferry-caps', caps: ['verify', 'list'] });
    expect(machine.handle({ type: 'frame', frame: again })).toEqual([]);
    // The last answer before the first ack is the agreement.
    expect([...machine.agreed]).toEqual(['verify', 'list']);
  });

  it('sends no list to a receiver that did not ask for one, nor without announcing list itself', () => {
    const withoutList = fromNative({ type: 'ferry-caps', caps: ['verify', 'resume'] });
    expect(sending().handle({ type: 'frame', frame: withoutList })).toEqual([]);
    const asked = fromNative({ type: 'ferry-caps', caps: CAPS });
    expect(sending(['verify']).handle({ type: 'frame', frame: asked })).toEqual([]);
  });
});

describe('the receiver asking its person with the sender’s list', () => {
  function receiver(overrides: Partial<ReceiverConfig> = {}): ReceiverMachine {
    const machine = createReceiver({
      surface: 'native',
      caps: CAPS,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: true,
      ...overrides,
    });
    machine.handle({ type: 'channel-open' });
    return machine;
  }

  /** A receiver that heard the sender's caps and first metadata, and answered with its own. */
  function awaitingList(overrides: Partial<ReceiverConfig> = {}) {
    const machine = receiver(overrides);
    machine.handle({
      type: 'frame',
      frame: text({ type: 'ferry-caps', caps: CAPS, rejoin: '7e'.repeat(32) }),
    });
    const actions = machine.handle({ type: 'frame', frame: metadata(0) });
    return { machine, actions };
  }

  it('answers the caps at the first metadata, before anyone is asked, and waits for the list', () => {
    const { machine, actions } = awaitingList();
    expect(actions).toEqual([
      { type: 'clear-timer', timer: 'first-data' },
      {
        type: 'send',
        frame: fromNative({ type: 'ferry-caps', caps: CAPS }),
        early: true,
      },
      { type: 'set-timer', timer: 'list', ms: LIST_WAIT_MS },
    ]);
    expect(machine.state).toEqual({ phase: 'awaiting-sender', index: 0 });
  });

  it('asks with every file once the list is complete', () => {
    const { machine } = awaitingList();
    expect(machine.handle({ type: 'frame', frame: list(LISTED.slice(0, 2), true) })).toEqual([]);
    const actions = machine.handle({ type: 'frame', frame: list(LISTED.slice(2)) });
    expect(actions).toEqual([
      { type: 'clear-timer', timer: 'list' },
      {
        type: 'ask-accept',
        offer: expect.objectContaining({
          total: 3,
          totalBytes: TOTAL_BYTES,
          files: [
            { path: 'notes.txt', size: 5 },
            { path: 'photos/.hidden/run.sh', size: 4 },
            { path: 'photos/b.jpg', size: 1 },
          ],
        }),
      },
    ]);
  });

  it('asks with what it has once the list is overdue', () => {
    const { machine } = awaitingList();
    machine.handle({ type: 'frame', frame: list(LISTED.slice(0, 1), true) });
    const actions = machine.handle({ type: 'timer-fired', timer: 'list' });
    expect(actions).toEqual([
      {
        type: 'ask-accept',
        offer: expect.objectContaining({ files: [{ path: 'notes.txt', size: 5 }] }),
      },
    ]);
    // What came too late is not what the person was shown.
    expect(machine.handle({ type: 'frame', frame: list(LISTED.slice(1)) })).toEqual([]);
  });

  it('does not answer early when it will not ask, and then never names list', () => {
    const machine = receiver({ askBeforeAccepting: false });
    machine.handle({
      type: 'frame',
      frame: text({ type: 'ferry-caps', caps: CAPS, rejoin: '7e'.repeat(32) }),
    });
    expect(types(machine.handle({ type: 'frame', frame: metadata(0) }))).toEqual([]);
    const actions = machine.handle({ type: 'part-opened', index: 0, offset: 0 });
    expect(messages(actions)).toEqual([
      { type: 'ferry-caps', caps: ['verify', 'resume', 'reconnect'] },
      expect.objectContaining({ type: 'ack' }),
    ]);
  });

  it('speaks the spec alone to a sender that announced nothing: no caps, no wait', () => {
    const machine = receiver();
    const actions = machine.handle({ type: 'frame', frame: metadata(0) });
    expect(actions.map((action) => action.type)).toEqual(['clear-timer', 'ask-accept']);
    expect(actions).toContainEqual({
      type: 'ask-accept',
      offer: expect.not.objectContaining({ files: expect.anything() }),
    });
  });

  it('answers again before its first ack when the chosen target dropped resume', () => {
    const { machine } = awaitingList();
    machine.handle({ type: 'frame', frame: list(LISTED) });
    const actions = machine.handle({ type: 'accepted', resumable: false });
    expect(messages(actions).map((message) => [message.type, message.caps])).toEqual([
      ['ferry-caps', ['verify', 'list']],
      ['ack', undefined],
    ]);
    expect(actions.some((action) => action.type === 'send' && action.early === true)).toBe(false);
  });

  /** Accepted on the full list, with file 1 received whole. */
  function pastFileOne(): ReceiverMachine {
    const { machine } = awaitingList();
    machine.handle({ type: 'frame', frame: list(LISTED) });
    machine.handle({ type: 'accepted' });
    machine.handle({ type: 'part-opened', index: 0, offset: 0 });
    machine.handle({ type: 'frame', frame: binaryFrame(utf8.encode('12345')) });
    machine.handle({ type: 'frame', frame: text({ type: 'end' }) });
    machine.handle({
      type: 'frame',
      frame: text({ type: 'ferry-digest', id: 'f-1', sha256: 'a'.repeat(64) }),
    });
    expect(machine.state).toEqual({ phase: 'awaiting-metadata', index: 1 });
    return machine;
  }

  it('takes a later file that matches the list', () => {
    expect(pastFileOne().handle({ type: 'frame', frame: metadata(1) })).toContainEqual(
      expect.objectContaining({ type: 'open-part', index: 1, path: 'photos/.hidden/run.sh' }),
    );
  });

  it.each([
    [
      'a different name',
      { fileName: 'photos/run.exe' },
      'file 2 is announced as "photos/run.exe" (4 B), but the list the transfer was accepted on names "photos/.hidden/run.sh" (4 B)',
    ],
    [
      'a different size',
      { fileSize: 3 },
      'file 2 is announced as "photos/.hidden/run.sh" (3 B), but the list the transfer was accepted on names "photos/.hidden/run.sh" (4 B)',
    ],
  ])(
    'refuses a later file with %s: incompatible with the reason, nothing opened',
    (_what, fields, problem) => {
      const actions = pastFileOne().handle({ type: 'frame', frame: metadata(1, fields) });
      const reason = `refused file description: ${problem}`;
      expect(messages(actions)).toEqual([
        expect.objectContaining({ type: 'incompatible', reason }),
      ]);
      expect(actions).toContainEqual({ type: 'fail', code: 'ERR_BAD_METADATA', message: reason });
      expect(actions.some((action) => action.type === 'open-part')).toBe(false);
    },
  );

  it('refuses a list whose first file is not the one announced, before asking', () => {
    const { machine } = awaitingList();
    const actions = machine.handle({
      type: 'frame',
      frame: list([{ name: 'harmless.txt', size: 5 }, ...LISTED.slice(1)]),
    });
    expect(actions).toContainEqual(expect.objectContaining({ code: 'ERR_BAD_METADATA' }));
    expect(actions.some((action) => action.type === 'ask-accept')).toBe(false);
  });

  it('refuses a list of more files than the batch holds, or of more bytes', () => {
    const longer = awaitingList().machine.handle({
      type: 'frame',
      frame: list([...LISTED, { name: 'extra.bin', size: 0 }]),
    });
    expect(longer).toContainEqual({
      type: 'fail',
      code: 'ERR_BAD_METADATA',
      message: 'refused file description: the file list names more files than the 3 announced',
    });
    const heavier = awaitingList().machine.handle({
      type: 'frame',
      frame: list([...LISTED.slice(0, 2), { name: 'photos/b.jpg', size: 2 }]),
    });
    expect(heavier).toContainEqual({
      type: 'fail',
      code: 'ERR_BAD_METADATA',
      message:
        'refused file description: the file list adds up to 11 B, more than the 10 B of the whole batch',
    });
  });

  it('ignores a list it never asked for', () => {
    const machine = receiver({ askBeforeAccepting: false });
    machine.handle({ type: 'frame', frame: metadata(0) });
    expect(machine.handle({ type: 'frame', frame: list(LISTED) })).toEqual([]);
  });
});

describe('a list between the two machines', () => {
  it('reaches the prompt whole, and the batch then runs as listed', () => {
    const sender = createSender({
      files: FILES,
      caps: CAPS,
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
    });
    const receiver = createReceiver({
      surface: 'native',
      caps: CAPS,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: true,
    });
    receiver.handle({ type: 'channel-open' });
    const toReceiver = (actions: SenderAction[]) =>
      actions.flatMap((action) =>
        action.type === 'send' ? receiver.handle({ type: 'frame', frame: action.frame }) : [],
      );
    const toSender = (actions: ReceiverAction[]) =>
      actions.flatMap((action) =>
        action.type === 'send' ? sender.handle({ type: 'frame', frame: action.frame }) : [],
      );
    const asked = toReceiver(
      toSender(toReceiver(sender.handle({ type: 'channel-open', relayed: false }))),
    );
    const ask = asked.find((action) => action.type === 'ask-accept');
    expect(ask?.type === 'ask-accept' && ask.offer.files?.map((file) => file.path)).toEqual(
      FILES.map((file) => file.fileName),
    );
    expect(types(asked)).toEqual([]);
    receiver.handle({ type: 'accepted' });
    const streaming = toSender(receiver.handle({ type: 'part-opened', index: 0, offset: 0 }));
    expect(streaming).toContainEqual({ type: 'stream-file', index: 0, offset: 0 });
  });
});
