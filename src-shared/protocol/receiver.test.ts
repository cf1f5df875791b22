import { describe, expect, it } from 'vitest';
import { sanitizeRelativePath } from '../names/sanitize-path';
import { binaryFrame, textFrame, type Frame } from './frame';
import { createReceiver, type ReceiverConfig, type ReceiverMachine } from './receiver';
import { versionReasonForPeer, versionRemedy } from './version-remedy';

const utf8 = new TextEncoder();
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const json = (value: unknown): string => JSON.stringify(value);
const text = (value: unknown): Frame => textFrame(json(value));
const toSender = (value: unknown): Frame => binaryFrame(utf8.encode(json(value)));
const data = (content: string): Frame => binaryFrame(utf8.encode(content));

const END = text({ type: 'end' });
const NO_PROGRESS = { type: 'set-timer', timer: 'no-progress', ms: 60_000 } as const;
const NATIVE_ACK = (id: string) => ({
  type: 'send',
  frame: toSender({ type: 'ack', id, offset: 0, ...LOCAL }),
});

function metadata(fields: Record<string, unknown> = {}): Frame {
  return text({
    type: 'metadata',
    id: 'f-1',
    fileName: 'notes.txt',
    fileSize: 5,
    index: 1,
    total: 1,
    totalBytes: 5,
    pv: 1,
    pvMin: 1,
    ver: '1.5.9',
    ...fields,
  });
}

function receiver(overrides: Partial<ReceiverConfig> = {}): ReceiverMachine {
  const machine = createReceiver({
    surface: 'native',
    local: LOCAL,
    remedySurface: 'cli',
    askBeforeAccepting: false,
    ...overrides,
  });
  machine.handle({ type: 'channel-open' });
  return machine;
}

const BROWSER = {
  surface: 'browser',
  local: { pv: 1, pvMin: 1 },
  remedySurface: 'browser',
} as const;

/** A receiver that has acknowledged a file announced with `fields`. */
function receiving(
  fields: Record<string, unknown> = {},
  overrides: Partial<ReceiverConfig> = {},
): ReceiverMachine {
  const machine = receiver(overrides);
  machine.handle({ type: 'frame', frame: metadata(fields) });
  return machine;
}

function incompatibleToSender(reason: string, local: object = LOCAL): Frame {
  return toSender({ type: 'incompatible', reason, ...local });
}

describe('timeouts: a native receiver connected with no data yet fails after 30 s', () => {
  it('connecting arms the first-data timer', () => {
    const machine = createReceiver({
      surface: 'native',
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: false,
    });
    expect(machine.handle({ type: 'channel-open' })).toEqual([
      { type: 'set-timer', timer: 'first-data', ms: 30_000 },
    ]);
    expect(machine.state).toEqual({ phase: 'awaiting-metadata', index: 0 });
  });

  it('when it fires: no data arrived within 30s', () => {
    const machine = receiver();
    expect(machine.handle({ type: 'timer-fired', timer: 'first-data' })).toEqual([
      { type: 'fail', code: 'ERR_NO_DATA', message: 'no data arrived within 30s' },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('a browser receiver keeps no such timer', () => {
    const machine = createReceiver({ ...BROWSER, askBeforeAccepting: false });
    expect(machine.handle({ type: 'channel-open' })).toEqual([]);
  });
});

describe('per-file sequence step 2: the receiver acks with offset 0', () => {
  it('a native receiver opens the part file, acks as binary and starts the no-progress timer', () => {
    const machine = receiver();
    expect(machine.handle({ type: 'frame', frame: metadata() })).toEqual([
      { type: 'clear-timer', timer: 'first-data' },
      { type: 'open-part', index: 0, path: 'notes.txt', fileSize: 5 },
      NATIVE_ACK('f-1'),
      NO_PROGRESS,
    ]);
    expect(machine.state).toEqual({
      phase: 'receiving',
      index: 0,
      id: 'f-1',
      path: 'notes.txt',
      fileSize: 5,
      written: 0,
      awaitingStart: false,
    });
  });

  it('a browser receiver acks as text and arms no timer', () => {
    const machine = receiver({ ...BROWSER });
    expect(machine.handle({ type: 'frame', frame: metadata() })).toEqual([
      { type: 'open-part', index: 0, path: 'notes.txt', fileSize: 5 },
      { type: 'send', frame: textFrame('{"type":"ack","id":"f-1","offset":0,"pv":1,"pvMin":1}') },
    ]);
  });

  it('the receiver sanitizes fileName before opening the part file', () => {
    const hostile = '../../.ssh/authorized_keys';
    const actions = receiver().handle({ type: 'frame', frame: metadata({ fileName: hostile }) });
    const open = actions.find((action) => action.type === 'open-part');
    expect(open).toEqual({
      type: 'open-part',
      index: 0,
      path: sanitizeRelativePath(hostile),
      fileSize: 5,
    });
    expect(open?.type === 'open-part' && open.path.split('/')).not.toContain('..');
  });
});

describe('per-file sequence step 1: the command-line receiver may first ask a person', () => {
  function asking(): ReceiverMachine {
    const machine = receiver({ askBeforeAccepting: true });
    expect(machine.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 9 }) })).toEqual(
      [
        { type: 'clear-timer', timer: 'first-data' },
        {
          type: 'ask-accept',
          offer: {
            fileName: 'notes.txt',
            fileSize: 5,
            total: 2,
            totalBytes: 9,
            sender: { pv: 1, pvMin: 1, ver: '1.5.9' },
          },
        },
      ],
    );
    expect(machine.state).toEqual({ phase: 'awaiting-answer', index: 0 });
    return machine;
  }

  it('accepting opens the part file and acks', () => {
    const machine = asking();
    expect(machine.handle({ type: 'accepted' })).toEqual([
      { type: 'open-part', index: 0, path: 'notes.txt', fileSize: 5 },
      NATIVE_ACK('f-1'),
      NO_PROGRESS,
    ]);
  });

  it('rule 3: declining closes the channel without sending anything', () => {
    const machine = asking();
    expect(machine.handle({ type: 'declined' })).toEqual([
      { type: 'fail', code: 'ERR_DECLINED', message: 'the transfer was declined' },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it("the sender's release string reaches the prompt without control characters", () => {
    const machine = receiver({ askBeforeAccepting: true });
    const actions = machine.handle({ type: 'frame', frame: metadata({ ver: '1.6\u001b[2J' }) });
    expect(actions).toContainEqual(
      expect.objectContaining({
        type: 'ask-accept',
        offer: expect.objectContaining({ sender: { pv: 1, pvMin: 1, ver: '1.6\ufffd[2J' } }),
      }),
    );
  });

  it('only the first file is asked about', () => {
    const machine = asking();
    machine.handle({ type: 'accepted' });
    machine.handle({ type: 'frame', frame: data('12345') });
    const actions = machine.handle({ type: 'frame', frame: END });
    expect(actions).toEqual([{ type: 'commit', index: 0 }, NO_PROGRESS]);
    expect(
      machine.handle({
        type: 'frame',
        frame: metadata({
          id: 'f-2',
          fileName: 'b.txt',
          fileSize: 4,
          index: 2,
          total: 2,
          totalBytes: 9,
        }),
      }),
    ).toEqual([
      { type: 'open-part', index: 1, path: 'b.txt', fileSize: 4 },
      NATIVE_ACK('f-2'),
      NO_PROGRESS,
    ]);
  });

  it('no timer runs while the person decides (the sender allows 120 s)', () => {
    const machine = asking();
    expect(machine.handle({ type: 'timer-fired', timer: 'no-progress' })).toEqual([]);
    expect(machine.state.phase).toBe('awaiting-answer');
  });

  it('file data before the answer is a protocol error', () => {
    const machine = asking();
    expect(machine.handle({ type: 'frame', frame: data('x') })).toEqual([
      {
        type: 'send',
        frame: incompatibleToSender(
          'the receiving device stopped the transfer: file data arrived before the file was acknowledged',
        ),
      },
      {
        type: 'fail',
        code: 'ERR_PROTOCOL',
        message:
          'the other device broke the transfer protocol: file data arrived before the file was acknowledged',
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('per-file sequence step 3 and 4: write, then check the byte count', () => {
  it('each binary frame is written and reported, and re-arms the no-progress timer', () => {
    const machine = receiving();
    expect(machine.handle({ type: 'frame', frame: data('123') })).toEqual([
      { type: 'write', index: 0, bytes: utf8.encode('123') },
      {
        type: 'progress',
        index: 0,
        total: 1,
        fileBytes: 3,
        fileSize: 5,
        bytesDone: 3,
        totalBytes: 5,
      },
      NO_PROGRESS,
    ]);
  });

  it('a binary frame that spells a control message is written as file data', () => {
    const machine = receiving({ fileSize: 14, totalBytes: 14 });
    expect(machine.handle({ type: 'frame', frame: data('{"type":"end"}') })[0]).toEqual({
      type: 'write',
      index: 0,
      bytes: utf8.encode('{"type":"end"}'),
    });
  });

  it('rule 6: a full count commits the part file; the batch ends with received (native)', () => {
    const machine = receiving();
    machine.handle({ type: 'frame', frame: data('12345') });
    expect(machine.handle({ type: 'frame', frame: END })).toEqual([
      { type: 'commit', index: 0 },
      { type: 'send', frame: toSender({ type: 'received' }) },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'complete', files: 1, bytes: 5 },
      { type: 'set-timer', timer: 'teardown', ms: 5000 },
    ]);
    expect(machine.state).toEqual({ phase: 'done', files: 1, bytes: 5 });
  });

  it('the teardown grace of 5 s lets received reach the sender, then the receiver closes', () => {
    const machine = receiving();
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    expect(machine.handle({ type: 'timer-fired', timer: 'teardown' })).toEqual([
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('a sender that closes first ends the grace', () => {
    const machine = receiving();
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    expect(machine.handle({ type: 'channel-closed' })).toEqual([
      { type: 'clear-timer', timer: 'teardown' },
    ]);
    expect(machine.state.phase).toBe('done');
  });

  it('a browser receiver sends no received', () => {
    const machine = receiving({}, { ...BROWSER });
    machine.handle({ type: 'frame', frame: data('12345') });
    expect(machine.handle({ type: 'frame', frame: END })).toEqual([
      { type: 'commit', index: 0 },
      { type: 'complete', files: 1, bytes: 5 },
      { type: 'set-timer', timer: 'teardown', ms: 5000 },
    ]);
  });

  it('rule 1: an empty file is metadata, ack, end and is committed with nothing written', () => {
    const machine = receiver();
    expect(
      machine.handle({ type: 'frame', frame: metadata({ fileSize: 0, totalBytes: 0 }) }),
    ).toEqual([
      { type: 'clear-timer', timer: 'first-data' },
      { type: 'open-part', index: 0, path: 'notes.txt', fileSize: 0 },
      NATIVE_ACK('f-1'),
      NO_PROGRESS,
    ]);
    expect(machine.handle({ type: 'frame', frame: END })).toEqual([
      { type: 'commit', index: 0 },
      { type: 'send', frame: toSender({ type: 'received' }) },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'complete', files: 1, bytes: 0 },
      { type: 'set-timer', timer: 'teardown', ms: 5000 },
    ]);
  });
});

describe('errors: bytes written differ from fileSize', () => {
  it('short: the file is discarded and the sender told why', () => {
    const machine = receiving();
    machine.handle({ type: 'frame', frame: data('123') });
    const reason = 'notes.txt was discarded: 3 of 5 bytes arrived';
    expect(machine.handle({ type: 'frame', frame: END })).toEqual([
      { type: 'discard', index: 0, keep: false },
      { type: 'send', frame: incompatibleToSender(reason) },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'fail', code: 'ERR_SIZE_MISMATCH', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('over: detected as soon as the count exceeds fileSize, and the crossing frame is not written', () => {
    const machine = receiving();
    machine.handle({ type: 'frame', frame: data('1234') });
    const reason = 'notes.txt was discarded: more than the announced 5 bytes arrived';
    expect(machine.handle({ type: 'frame', frame: data('56') })).toEqual([
      { type: 'discard', index: 0, keep: false },
      { type: 'send', frame: incompatibleToSender(reason) },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'fail', code: 'ERR_OVERRUN', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
    expect(machine.handle({ type: 'frame', frame: END })).toEqual([]);
  });

  it('a browser receiver sends the reason without waiting and does not close', () => {
    const machine = receiving({}, { ...BROWSER });
    const reason = 'notes.txt was discarded: more than the announced 5 bytes arrived';
    expect(machine.handle({ type: 'frame', frame: data('123456') })).toEqual([
      { type: 'discard', index: 0, keep: false },
      { type: 'send', frame: incompatibleToSender(reason, { pv: 1, pvMin: 1 }) },
      { type: 'fail', code: 'ERR_OVERRUN', message: reason },
    ]);
  });
});

describe('errors: no usable fileSize announced', () => {
  // Ferry's choice (docs/protocol.md, "Per-file sequence"): the spec lets a browser keep what
  // arrives unchecked, which hands a sender unbounded bytes; every surface reads the size as 0.
  it.each([{ fileSize: undefined }, { fileSize: -1 }, { fileSize: '5' }])(
    'a browser receiver reads it as 0 and discards the file at its first byte (%o)',
    (fields) => {
      const machine = receiving({ ...fields, totalBytes: 0 }, { ...BROWSER });
      expect(machine.state).toMatchObject({ phase: 'receiving', fileSize: 0 });
      expect(machine.handle({ type: 'frame', frame: data('1') })).toEqual([
        { type: 'discard', index: 0, keep: false },
        {
          type: 'send',
          frame: incompatibleToSender(
            'notes.txt was discarded: your device announced no usable size for it',
            { pv: 1, pvMin: 1 },
          ),
        },
        {
          type: 'fail',
          code: 'ERR_SIZE_MISMATCH',
          message: 'notes.txt was discarded: the sender announced no usable size',
        },
      ]);
      expect(machine.handle({ type: 'frame', frame: END })).toEqual([]);
    },
  );

  it('a browser receiver keeps an empty file announced without a size', () => {
    const machine = receiving({ fileSize: undefined, totalBytes: 0 }, { ...BROWSER });
    expect(machine.handle({ type: 'frame', frame: END })[0]).toEqual({ type: 'commit', index: 0 });
  });

  it('a native receiver reads it as 0 and discards a non-empty file', () => {
    const machine = receiver();
    expect(
      machine.handle({ type: 'frame', frame: metadata({ fileSize: undefined }) }),
    ).toContainEqual({
      type: 'open-part',
      index: 0,
      path: 'notes.txt',
      fileSize: 0,
    });
    expect(machine.handle({ type: 'frame', frame: data('1') })).toEqual([
      { type: 'discard', index: 0, keep: false },
      {
        type: 'send',
        frame: incompatibleToSender(
          'notes.txt was discarded: your device announced no usable size for it',
        ),
      },
      { type: 'clear-timer', timer: 'no-progress' },
      {
        type: 'fail',
        code: 'ERR_SIZE_MISMATCH',
        message: 'notes.txt was discarded: the sender announced no usable size',
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('a native receiver keeps an empty file announced without a size', () => {
    const machine = receiving({ fileSize: null });
    expect(machine.handle({ type: 'frame', frame: END })[0]).toEqual({ type: 'commit', index: 0 });
  });
});

describe('metadata table: totalBytes 0 from older senders', () => {
  it('the receiver substitutes fileSize', () => {
    const machine = receiving({ fileSize: 5, totalBytes: 0 });
    expect(machine.handle({ type: 'frame', frame: data('12') })).toContainEqual({
      type: 'progress',
      index: 0,
      total: 1,
      fileBytes: 2,
      fileSize: 5,
      bytesDone: 2,
      totalBytes: 5,
    });
  });

  it('the offer shows the substituted size', () => {
    const machine = receiver({ askBeforeAccepting: true });
    expect(
      machine.handle({
        type: 'frame',
        frame: metadata({ totalBytes: 0, pv: undefined, pvMin: undefined, ver: undefined }),
      }),
    ).toContainEqual({
      type: 'ask-accept',
      offer: {
        fileName: 'notes.txt',
        fileSize: 5,
        total: 1,
        totalBytes: 5,
        sender: { pv: 1, pvMin: 1 },
      },
    });
  });
});

describe('errors: version ranges do not overlap', () => {
  const remote = { pv: 3, pvMin: 2, ver: '2.0.0' };

  it('the receiver sends incompatible instead of the ack and opens no file', () => {
    const machine = receiver();
    expect(machine.handle({ type: 'frame', frame: metadata(remote) })).toEqual([
      {
        type: 'send',
        frame: incompatibleToSender(versionReasonForPeer(LOCAL, remote)),
      },
      { type: 'clear-timer', timer: 'first-data' },
      {
        type: 'fail',
        code: 'ERR_INCOMPATIBLE_VERSION',
        message: versionRemedy(LOCAL, remote, 'cli'),
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('the wire reason is worded for the sender and the local message for this surface', () => {
    expect(versionReasonForPeer(LOCAL, remote)).toContain('your device');
    expect(versionRemedy(LOCAL, remote, 'cli')).toContain('npm install -g ferry@latest');
  });

  it('an older sender is told to update itself', () => {
    const newer = { pv: 4, pvMin: 3, ver: '3.0.0' };
    const machine = receiver({ local: newer, remedySurface: 'desktop' });
    const actions = machine.handle({
      type: 'frame',
      frame: metadata({ pv: undefined, pvMin: undefined }),
    });
    expect(actions[0]).toEqual({
      type: 'send',
      frame: incompatibleToSender(
        'your device (protocol 1, Ferry 1.5.9) is too old for the other device (protocols 3 to 4, ' +
          'Ferry 3.0.0): update Ferry on your device',
        newer,
      ),
    });
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_INCOMPATIBLE_VERSION',
      message:
        'the other device (protocol 1, Ferry 1.5.9) is too old for this device (protocols 3 to 4, ' +
        'Ferry 3.0.0): Ferry must be updated on the other device',
    });
  });

  it('a browser receiver does not close after sending it', () => {
    const machine = receiver({ ...BROWSER, askBeforeAccepting: true });
    expect(machine.handle({ type: 'frame', frame: metadata(remote) })).toEqual([
      {
        type: 'send',
        frame: incompatibleToSender(versionReasonForPeer(BROWSER.local, remote), BROWSER.local),
      },
      {
        type: 'fail',
        code: 'ERR_INCOMPATIBLE_VERSION',
        message: versionRemedy(BROWSER.local, remote, 'browser'),
      },
    ]);
  });
});

describe('errors: a text control frame over 1000 bytes', () => {
  it('is a protocol error: the transfer stops and nothing is written', () => {
    const machine = receiving();
    const oversized = textFrame(json({ type: 'end', pad: 'x'.repeat(1000) }));
    const problem = 'a control frame of more than 1000 bytes arrived';
    expect(machine.handle({ type: 'frame', frame: oversized })).toEqual([
      { type: 'discard', index: 0, keep: false },
      {
        type: 'send',
        frame: incompatibleToSender(`the receiving device stopped the transfer: ${problem}`),
      },
      { type: 'clear-timer', timer: 'no-progress' },
      {
        type: 'fail',
        code: 'ERR_PROTOCOL',
        message: `the other device broke the transfer protocol: ${problem}`,
      },
      { type: 'close', flushMs: 2000 },
    ]);
    expect(machine.handle({ type: 'frame', frame: data('12345') })).toEqual([]);
  });
});

describe('frame classification at the receiver', () => {
  it('binary data before an acknowledged file is a protocol error', () => {
    const machine = receiver();
    expect(machine.handle({ type: 'frame', frame: data('abc') })).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message:
        'the other device broke the transfer protocol: file data arrived before the file was acknowledged',
    });
  });

  it('binary data between files is a protocol error', () => {
    const machine = receiving({ total: 2, totalBytes: 10 });
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    expect(machine.handle({ type: 'frame', frame: data('6') })[0]).toEqual({
      type: 'send',
      frame: incompatibleToSender(
        'the receiving device stopped the transfer: file data arrived before the file was acknowledged',
      ),
    });
  });

  it('rule 3: an unknown type is ignored mid-file', () => {
    const machine = receiving();
    expect(machine.handle({ type: 'frame', frame: text({ type: 'pause' }) })).toEqual([]);
    expect(machine.state.phase).toBe('receiving');
  });

  it('rule 6: a browser receiver ignores a frame that does not start with {', () => {
    const machine = receiver({ ...BROWSER });
    expect(
      machine.handle({ type: 'frame', frame: textFrame(` ${json({ type: 'end' })}`) }),
    ).toEqual([]);
  });

  it('rule 6: a native receiver reads metadata after leading whitespace', () => {
    const machine = receiver();
    const frame = metadata();
    const spaced = textFrame(`\n  ${frame.kind === 'text' ? frame.text : ''}`);
    expect(machine.handle({ type: 'frame', frame: spaced })).toContainEqual(NATIVE_ACK('f-1'));
  });

  it('an end marker with no file open is a protocol error', () => {
    expect(receiver().handle({ type: 'frame', frame: END })).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message:
        'the other device broke the transfer protocol: an end marker arrived with no file open',
    });
  });

  it('metadata before the previous file ended is a protocol error', () => {
    const machine = receiving({ total: 2 });
    expect(
      machine.handle({ type: 'frame', frame: metadata({ index: 2, total: 2 }) }),
    ).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message:
        'the other device broke the transfer protocol: a file description arrived before the previous file ended',
    });
  });
});

describe('incompatible rule 2: a refused file description', () => {
  it.each([
    [{ fileName: undefined }, 'fileName is missing or empty'],
    [{ id: 7 }, 'id is missing or not a string'],
    [{ index: 0 }, 'index is not a 1-based position'],
  ])('%o: incompatible with a reason, and the transfer stops', (fields, problem) => {
    const machine = receiver();
    const reason = `refused file description: ${problem}`;
    expect(machine.handle({ type: 'frame', frame: metadata(fields) })).toEqual([
      { type: 'send', frame: incompatibleToSender(reason) },
      { type: 'clear-timer', timer: 'first-data' },
      { type: 'fail', code: 'ERR_BAD_METADATA', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('per-file sequence rule 2: a file out of order is refused', () => {
    const machine = receiving({ total: 3, totalBytes: 10 });
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    const reason = 'refused file description: file 3 of 3 arrived where file 2 was expected';
    expect(machine.handle({ type: 'frame', frame: metadata({ index: 3, total: 3 }) })).toEqual([
      { type: 'send', frame: incompatibleToSender(reason) },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'fail', code: 'ERR_BAD_METADATA', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('incompatible received by the receiver', () => {
  it("overlapping ranges mid-file: the part is discarded and the sender's reason shown", () => {
    const machine = receiving();
    const frame = text({
      type: 'incompatible',
      reason: 'notes.txt changed on the sending device',
      ...LOCAL,
    });
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      { type: 'discard', index: 0, keep: false },
      { type: 'clear-timer', timer: 'no-progress' },
      {
        type: 'fail',
        code: 'ERR_PEER_ABORTED',
        message: 'notes.txt changed on the sending device',
      },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('mismatched ranges: the local remedy, not the wire reason', () => {
    const machine = receiver({ remedySurface: 'browser', surface: 'browser' });
    const frame = text({ type: 'incompatible', reason: 'rm -rf', pv: 9, pvMin: 9 });
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      {
        type: 'fail',
        code: 'ERR_INCOMPATIBLE_VERSION',
        message: versionRemedy(LOCAL, { pv: 9, pvMin: 9 }, 'browser'),
      },
      { type: 'close', flushMs: 0 },
    ]);
  });
});

describe('per-file sequence rule 3: cancel is a close; native peers give up at once', () => {
  it('a close mid-file discards the part file', () => {
    const machine = receiving();
    machine.handle({ type: 'frame', frame: data('12') });
    expect(machine.handle({ type: 'channel-closed' })).toEqual([
      { type: 'discard', index: 0, keep: false },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'fail', code: 'ERR_PEER_CLOSED', message: 'the other device closed the connection' },
    ]);
  });

  it('cancelling mid-file discards, sends nothing and closes', () => {
    const machine = receiving();
    expect(machine.handle({ type: 'cancel' })).toEqual([
      { type: 'discard', index: 0, keep: false },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'fail', code: 'ERR_CANCELLED', message: 'the transfer was cancelled' },
      { type: 'close', flushMs: 0 },
    ]);
  });
});

describe('timeouts: a native receiver mid-transfer with no progress for 60 s fails', () => {
  it('the part file is discarded', () => {
    const machine = receiving();
    expect(machine.handle({ type: 'timer-fired', timer: 'no-progress' })).toEqual([
      { type: 'discard', index: 0, keep: false },
      {
        type: 'fail',
        code: 'ERR_STALLED',
        message: 'the transfer made no progress for 60 seconds',
      },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('a disk write confirmation counts as progress', () => {
    const machine = receiving();
    expect(machine.handle({ type: 'bytes-written', bytes: 3 })).toEqual([NO_PROGRESS]);
  });
});

describe('errors: the disk refuses a write', () => {
  it('the part file is discarded and the sender told, without local details', () => {
    const machine = receiving();
    expect(machine.handle({ type: 'write-failed', detail: 'ENOSPC /home/me/Downloads' })).toEqual([
      { type: 'discard', index: 0, keep: false },
      {
        type: 'send',
        frame: incompatibleToSender(
          'notes.txt was discarded: the receiving device could not write it',
        ),
      },
      { type: 'clear-timer', timer: 'no-progress' },
      {
        type: 'fail',
        code: 'ERR_DISK',
        message: 'notes.txt could not be written (ENOSPC /home/me/Downloads)',
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('the receiver holds the batch to the total and count it was accepted at', () => {
  const TiB = 1024 ** 4;
  /** A native receiver that asked its person about "2 files, 10 B" and got file 1 whole. */
  function pastFileOne(): ReceiverMachine {
    const machine = receiver({ askBeforeAccepting: true });
    machine.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    machine.handle({ type: 'accepted' });
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    expect(machine.state).toEqual({ phase: 'awaiting-metadata', index: 1 });
    return machine;
  }
  const secondFile = (fields: Record<string, unknown>): Frame =>
    metadata({ id: 'f-2', fileName: 'b.bin', index: 2, total: 2, totalBytes: 10, ...fields });

  it('refuses a file announced past the accepted total: incompatible with the reason, nothing opened', () => {
    const machine = pastFileOne();
    const reason =
      'refused file description: file 2 announces 1.1 TB, which takes the batch past the 10 B that were accepted';
    expect(machine.handle({ type: 'frame', frame: secondFile({ fileSize: TiB }) })).toEqual([
      { type: 'send', frame: incompatibleToSender(reason) },
      { type: 'clear-timer', timer: 'no-progress' },
      { type: 'fail', code: 'ERR_BAD_METADATA', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('counts every file announced so far, not each file alone', () => {
    const actions = pastFileOne().handle({ type: 'frame', frame: secondFile({ fileSize: 6 }) });
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_BAD_METADATA',
      message:
        'refused file description: file 2 announces 6 B, which takes the batch past the 10 B that were accepted',
    });
    expect(actions.some((action) => action.type === 'open-part')).toBe(false);
  });

  it('takes a file that fills the batch exactly', () => {
    const actions = pastFileOne().handle({ type: 'frame', frame: secondFile({ fileSize: 5 }) });
    expect(actions).toContainEqual({ type: 'open-part', index: 1, path: 'b.bin', fileSize: 5 });
  });

  it('refuses a first file larger than the whole batch before asking anyone', () => {
    const machine = receiver({ askBeforeAccepting: true });
    const actions = machine.handle({
      type: 'frame',
      frame: metadata({ fileSize: 11, total: 2, totalBytes: 10 }),
    });
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_BAD_METADATA',
      message:
        'refused file description: file 1 announces 11 B, more than the 10 B of the whole batch',
    });
    expect(actions.some((action) => action.type === 'ask-accept')).toBe(false);
  });

  it('refuses a later metadata that changes the number of files', () => {
    const actions = pastFileOne().handle({
      type: 'frame',
      frame: secondFile({ fileSize: 5, total: 3 }),
    });
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_BAD_METADATA',
      message: 'refused file description: file 2 announces a batch of 3 files, but 2 were accepted',
    });
  });

  it('keeps the single-file rule: a total of 0 bytes means the file’s own size', () => {
    const machine = receiver();
    const actions = machine.handle({
      type: 'frame',
      frame: metadata({ fileSize: 5, totalBytes: 0 }),
    });
    expect(actions).toContainEqual({ type: 'open-part', index: 0, path: 'notes.txt', fileSize: 5 });
  });

  it('counts a file announced without a size as 0 in a browser too', () => {
    const machine = receiving({ total: 2, totalBytes: 5 }, { ...BROWSER });
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    const actions = machine.handle({
      type: 'frame',
      frame: secondFile({ fileSize: undefined, totalBytes: 5 }),
    });
    expect(actions).toContainEqual({ type: 'open-part', index: 1, path: 'b.bin', fileSize: 0 });
  });

  it('a batch announced anew after a lost link is held to its total again, from its first file', () => {
    const lost = pastFileOne();
    lost.handle({ type: 'channel-closed' });
    const again = receiver({ keptBytes: 5 });
    again.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    again.handle({ type: 'frame', frame: data('12345') });
    again.handle({ type: 'frame', frame: END });
    expect(again.handle({ type: 'frame', frame: secondFile({ fileSize: 5 }) })).toContainEqual(
      NATIVE_ACK('f-2'),
    );
    const lying = receiver();
    lying.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    lying.handle({ type: 'frame', frame: data('12345') });
    lying.handle({ type: 'frame', frame: END });
    expect(lying.handle({ type: 'frame', frame: secondFile({ fileSize: TiB }) })).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_BAD_METADATA' }),
    );
  });
});

describe('the receiver checks free space before the batch and before each file', () => {
  const READ = (index: number) => ({ type: 'read-free-space', index }) as const;
  const spaceFor = (index: number, freeBytes: number | undefined) =>
    ({ type: 'free-space', index, freeBytes, folder: '/home/ana/Downloads' }) as const;
  const checking = (overrides: Partial<ReceiverConfig> = {}) =>
    receiver({ checksFreeSpace: true, ...overrides });

  it('reads the free space once the batch is accepted, before anything is opened or acked', () => {
    const machine = checking();
    expect(
      machine.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) }),
    ).toEqual([{ type: 'clear-timer', timer: 'first-data' }, READ(0), NO_PROGRESS]);
    expect(machine.handle(spaceFor(0, 10))).toEqual([
      { type: 'open-part', index: 0, path: 'notes.txt', fileSize: 5 },
      NATIVE_ACK('f-1'),
      NO_PROGRESS,
    ]);
  });

  it('refuses a batch that needs more than is free: the sender hears the sizes, this side the folder too', () => {
    const machine = checking({ askBeforeAccepting: true });
    machine.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    expect(machine.handle({ type: 'accepted' })).toEqual([READ(0), NO_PROGRESS]);
    expect(machine.handle(spaceFor(0, 9))).toEqual([
      {
        type: 'send',
        frame: incompatibleToSender(
          'the receiving device does not have enough free space: this needs 10 B and 9 B is free',
        ),
      },
      { type: 'clear-timer', timer: 'no-progress' },
      {
        type: 'fail',
        code: 'ERR_DISK_FULL',
        message: 'not enough free space in /home/ana/Downloads: this needs 10 B and 9 B is free',
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('refuses a later file that no longer fits, before opening it', () => {
    const machine = checking();
    machine.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    machine.handle(spaceFor(0, 10));
    machine.handle({ type: 'frame', frame: data('12345') });
    machine.handle({ type: 'frame', frame: END });
    const second = metadata({ id: 'f-2', fileName: 'b.bin', index: 2, total: 2, totalBytes: 10 });
    expect(machine.handle({ type: 'frame', frame: second })).toEqual([READ(1), NO_PROGRESS]);
    const actions = machine.handle(spaceFor(1, 4));
    expect(actions).toContainEqual(
      expect.objectContaining({
        type: 'fail',
        code: 'ERR_DISK_FULL',
        message: 'not enough free space in /home/ana/Downloads: this needs 5 B and 4 B is free',
      }),
    );
    expect(actions.some((action) => action.type === 'open-part' || action.type === 'discard')).toBe(
      false,
    );
  });

  it('after a lost link, holds the batch to what is still missing', () => {
    const machine = checking({ keptBytes: 6 });
    machine.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    expect(machine.handle(spaceFor(0, 5))).toContainEqual(NATIVE_ACK('f-1'));
    const short = checking({ keptBytes: 4 });
    short.handle({ type: 'frame', frame: metadata({ total: 2, totalBytes: 10 }) });
    expect(short.handle(spaceFor(0, 5))).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_DISK_FULL' }),
    );
  });

  it('checks nothing where the target cannot tell', () => {
    const machine = checking();
    machine.handle({ type: 'frame', frame: metadata() });
    expect(machine.handle(spaceFor(0, undefined))).toContainEqual(NATIVE_ACK('f-1'));
  });

  it('a driver that says so on acceptance turns the check on for a chosen target', () => {
    const machine = receiver({ askBeforeAccepting: true });
    machine.handle({ type: 'frame', frame: metadata() });
    expect(machine.handle({ type: 'accepted', checksFreeSpace: true })).toEqual([
      READ(0),
      NO_PROGRESS,
    ]);
  });
});
