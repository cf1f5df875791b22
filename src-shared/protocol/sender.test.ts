import { describe, expect, it } from 'vitest';
import { binaryFrame, textFrame, type Frame } from './frame';
import { createSender, type SenderConfig, type SenderFile, type SenderMachine } from './sender';
import { versionReasonForPeer, versionRemedy } from './version-remedy';

const utf8 = new TextEncoder();
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const json = (value: unknown): string => JSON.stringify(value);
/** Native receivers send their control frames as binary. */
const fromNative = (value: unknown): Frame => binaryFrame(utf8.encode(json(value)));

const NOTES: SenderFile = { id: 'f-1', fileName: 'notes.txt', fileSize: 12 };
const EMPTY: SenderFile = { id: 'f-2', fileName: 'docs/empty.txt', fileSize: 0 };

function sender(files: SenderFile[], overrides: Partial<SenderConfig> = {}): SenderMachine {
  return createSender({
    files,
    local: LOCAL,
    surface: 'native',
    remedySurface: 'cli',
    ...overrides,
  });
}

function metadataFrame(file: SenderFile, index: number, total: number, totalBytes: number): Frame {
  return textFrame(
    json({
      type: 'metadata',
      id: file.id,
      fileName: file.fileName,
      fileSize: file.fileSize,
      index,
      total,
      totalBytes,
      ...LOCAL,
    }),
  );
}

const ack = (id: string, offset = 0): Frame => fromNative({ type: 'ack', id, offset, ...LOCAL });
/** An ack from a receiver that announces no release string (spec-only or older peers). */
const ackWithoutVer = (id: string): Frame =>
  fromNative({ type: 'ack', id, offset: 0, pv: 1, pvMin: 1 });
const END = textFrame('{"type":"end"}');

/** A native sender of `files` that has sent its first metadata. */
function announced(files: SenderFile[], overrides: Partial<SenderConfig> = {}): SenderMachine {
  const machine = sender(files, overrides);
  machine.handle({ type: 'channel-open', relayed: false });
  return machine;
}

/** A native sender streaming the first of `files`. */
function streaming(files: SenderFile[], overrides: Partial<SenderConfig> = {}): SenderMachine {
  const machine = announced(files, overrides);
  machine.handle({ type: 'frame', frame: ack(files[0]?.id ?? '') });
  return machine;
}

describe('per-file sequence step 1: the sender sends metadata', () => {
  it('metadata goes out as a text frame with every field, then the 120 s ack deadline is armed', () => {
    const machine = sender([NOTES, EMPTY]);
    expect(machine.handle({ type: 'channel-open', relayed: false })).toEqual([
      { type: 'send', frame: metadataFrame(NOTES, 1, 2, 12) },
      { type: 'set-timer', timer: 'ack', ms: 120_000 },
    ]);
    expect(machine.state).toEqual({ phase: 'awaiting-ack', index: 0 });
  });

  it('a browser sender omits ver when it has none', () => {
    const machine = createSender({
      files: [NOTES],
      local: { pv: 1, pvMin: 1 },
      surface: 'browser',
      remedySurface: 'browser',
    });
    expect(machine.handle({ type: 'channel-open', relayed: false })[0]).toEqual({
      type: 'send',
      frame: textFrame(
        '{"type":"metadata","id":"f-1","fileName":"notes.txt","fileSize":12,"index":1,"total":1,' +
          '"totalBytes":12,"pv":1,"pvMin":1}',
      ),
    });
  });
});

describe('per-file sequence step 2 and 3: the sender streams from the ack', () => {
  it('an ack with offset 0 starts the file from its first byte', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'frame', frame: ack('f-1') })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      { type: 'stream-file', index: 0, offset: 0 },
    ]);
    expect(machine.state).toEqual({ phase: 'streaming', index: 0, offset: 0 });
  });

  it('the sender seeks to a non-zero ack offset', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'frame', frame: ack('f-1', 5) })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      { type: 'stream-file', index: 0, offset: 5 },
    ]);
  });

  it('an ack sent as text (browser receivers) is accepted as well', () => {
    const machine = announced([NOTES]);
    const frame = textFrame(json({ type: 'ack', id: 'f-1', offset: 0 }));
    expect(machine.handle({ type: 'frame', frame })).toContainEqual({
      type: 'stream-file',
      index: 0,
      offset: 0,
    });
  });
});

describe('per-file sequence step 4 and rule 2: end, then the next file in order', () => {
  it('once a file is streamed the sender sends end and the next metadata', () => {
    const machine = streaming([NOTES, EMPTY]);
    expect(machine.handle({ type: 'file-streamed', index: 0 })).toEqual([
      { type: 'send', frame: END },
      { type: 'send', frame: metadataFrame(EMPTY, 2, 2, 12) },
      { type: 'set-timer', timer: 'ack', ms: 120_000 },
    ]);
    expect(machine.state).toEqual({ phase: 'awaiting-ack', index: 1 });
  });

  it('rule 1: an empty file is metadata, ack, end with no binary frame and no stream', () => {
    const machine = announced([EMPTY]);
    expect(machine.handle({ type: 'frame', frame: ack('f-2') })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      { type: 'send', frame: END },
      { type: 'set-timer', timer: 'delivery', ms: 60_000 },
      { type: 'watch-buffer' },
    ]);
  });

  it('a stale file-streamed for another file changes nothing', () => {
    const machine = streaming([NOTES, EMPTY]);
    expect(machine.handle({ type: 'file-streamed', index: 1 })).toEqual([]);
  });
});

describe('per-file sequence rule 4: the ack deadline is 120 seconds', () => {
  it('no ack within the deadline fails the transfer and closes', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'timer-fired', timer: 'ack' })).toEqual([
      {
        type: 'fail',
        code: 'ERR_ACK_TIMEOUT',
        message: 'the receiver did not answer within 120 seconds',
      },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('a timer that is no longer armed is ignored', () => {
    const machine = streaming([NOTES]);
    expect(machine.handle({ type: 'timer-fired', timer: 'ack' })).toEqual([]);
    expect(machine.state.phase).toBe('streaming');
  });
});

describe('per-file sequence rule 5: end of batch for a native sender', () => {
  /** A native sender whose one file is streamed; `ver` says whether the receiver announced one. */
  function delivering(ver = true): SenderMachine {
    const machine = announced([NOTES]);
    machine.handle({ type: 'frame', frame: ver ? ack('f-1') : ackWithoutVer('f-1') });
    expect(machine.handle({ type: 'file-streamed', index: 0 })).toEqual([
      { type: 'send', frame: END },
      { type: 'set-timer', timer: 'delivery', ms: 60_000 },
      { type: 'watch-buffer' },
    ]);
    return machine;
  }

  it('finishes on the received frame, confirmed', () => {
    const machine = delivering();
    expect(machine.handle({ type: 'frame', frame: fromNative({ type: 'received' }) })).toEqual([
      { type: 'clear-timer', timer: 'delivery' },
      { type: 'complete', files: 1, bytes: 12, confirmed: true },
      { type: 'close', flushMs: 0 },
    ]);
    expect(machine.state).toEqual({ phase: 'done', files: 1, bytes: 12, confirmed: true });
  });

  it('finishes when its send buffer reaches zero, for a receiver that announced no ver', () => {
    const machine = delivering(false);
    expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).toEqual([
      { type: 'clear-timer', timer: 'delivery' },
      { type: 'complete', files: 1, bytes: 12 },
      { type: 'close', flushMs: 0 },
    ]);
  });

  describe('delivery confirmation (Ferry extension): a receiver that announced ver', () => {
    it('keeps the channel open up to 10 s after the buffer drains, then finishes on received', () => {
      const machine = delivering();
      expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).toEqual([
        { type: 'clear-timer', timer: 'delivery' },
        { type: 'set-timer', timer: 'received', ms: 10_000 },
      ]);
      expect(machine.state).toEqual({ phase: 'awaiting-delivery', drained: true });
      expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).toEqual([]);
      expect(machine.handle({ type: 'frame', frame: fromNative({ type: 'received' }) })).toEqual([
        { type: 'clear-timer', timer: 'received' },
        { type: 'complete', files: 1, bytes: 12, confirmed: true },
        { type: 'close', flushMs: 0 },
      ]);
    });

    it('without received within 10 s it finishes as the spec says, not confirmed', () => {
      const machine = delivering();
      machine.handle({ type: 'buffered-amount', bytes: 0 });
      expect(machine.handle({ type: 'timer-fired', timer: 'received' })).toEqual([
        { type: 'complete', files: 1, bytes: 12, confirmed: false },
        { type: 'close', flushMs: 0 },
      ]);
    });

    it('the channel closing while it waits is the failure it always was', () => {
      const machine = delivering();
      machine.handle({ type: 'buffered-amount', bytes: 0 });
      expect(machine.handle({ type: 'channel-closed' })).toContainEqual(
        expect.objectContaining({ type: 'fail', code: 'ERR_PEER_CLOSED' }),
      );
    });
  });

  it('fails after 60 seconds during which the buffer did not shrink at all', () => {
    const machine = delivering();
    expect(machine.handle({ type: 'buffered-amount', bytes: 500 })).toEqual([]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 500 })).toEqual([]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 700 })).toEqual([]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 400 })).toEqual([
      { type: 'set-timer', timer: 'delivery', ms: 60_000 },
    ]);
    expect(machine.handle({ type: 'timer-fired', timer: 'delivery' })).toEqual([
      {
        type: 'fail',
        code: 'ERR_DELIVERY_TIMEOUT',
        message: 'timed out waiting for delivery confirmation',
      },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('anything after completion is ignored', () => {
    const machine = delivering(false);
    machine.handle({ type: 'buffered-amount', bytes: 0 });
    expect(machine.handle({ type: 'channel-closed' })).toEqual([]);
    expect(machine.handle({ type: 'frame', frame: fromNative({ type: 'received' }) })).toEqual([]);
  });
});

describe('per-file sequence rule 5: a browser sender drains to zero before completing', () => {
  function delivering(ver = true): SenderMachine {
    const machine = announced([NOTES], { surface: 'browser', remedySurface: 'browser' });
    machine.handle({ type: 'frame', frame: ver ? ack('f-1') : ackWithoutVer('f-1') });
    expect(machine.handle({ type: 'file-streamed', index: 0 })).toEqual([
      { type: 'send', frame: END },
      { type: 'watch-buffer' },
    ]);
    return machine;
  }

  it('received does not complete it while bytes still wait in its buffer', () => {
    const machine = delivering();
    expect(machine.handle({ type: 'frame', frame: fromNative({ type: 'received' }) })).toEqual([]);
    expect(machine.state.phase).toBe('awaiting-delivery');
    expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).toEqual([
      { type: 'complete', files: 1, bytes: 12, confirmed: true },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('for a receiver without ver: a buffer above zero keeps it waiting, zero completes it', () => {
    const machine = delivering(false);
    expect(machine.handle({ type: 'buffered-amount', bytes: 10 })).toEqual([]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).toEqual([
      { type: 'complete', files: 1, bytes: 12 },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('for a receiver that announced ver: an empty buffer waits up to 10 s for received', () => {
    const machine = delivering();
    expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).toEqual([
      { type: 'set-timer', timer: 'received', ms: 10_000 },
    ]);
    expect(machine.handle({ type: 'frame', frame: fromNative({ type: 'received' }) })).toEqual([
      { type: 'clear-timer', timer: 'received' },
      { type: 'complete', files: 1, bytes: 12, confirmed: true },
      { type: 'close', flushMs: 0 },
    ]);
  });
});

describe("timeouts: the sender's send buffer not draining at all for 60 s fails", () => {
  const MiB = 1024 * 1024;

  it('a native sender times the stall from each new low and stops timing below low water', () => {
    const machine = streaming([NOTES]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 9 * MiB })).toEqual([
      { type: 'set-timer', timer: 'drain', ms: 60_000 },
    ]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 9 * MiB })).toEqual([]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 8 * MiB })).toEqual([
      { type: 'set-timer', timer: 'drain', ms: 60_000 },
    ]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 3 * MiB })).toEqual([
      { type: 'clear-timer', timer: 'drain' },
    ]);
    expect(machine.handle({ type: 'buffered-amount', bytes: 9 * MiB })).toEqual([
      { type: 'set-timer', timer: 'drain', ms: 60_000 },
    ]);
    expect(machine.handle({ type: 'timer-fired', timer: 'drain' })).toEqual([
      {
        type: 'fail',
        code: 'ERR_DRAIN_STALLED',
        message: 'the connection stopped draining for 60 seconds',
      },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('the end of a file clears a running stall timer', () => {
    const machine = streaming([NOTES]);
    machine.handle({ type: 'buffered-amount', bytes: 9 * MiB });
    expect(machine.handle({ type: 'file-streamed', index: 0 }).slice(0, 2)).toEqual([
      { type: 'clear-timer', timer: 'drain' },
      { type: 'send', frame: END },
    ]);
  });

  it('a browser sender keeps no stall timer (it shares only the ack deadline and the flush)', () => {
    const machine = streaming([NOTES], { surface: 'browser', remedySurface: 'browser' });
    expect(machine.handle({ type: 'buffered-amount', bytes: 9 * MiB })).toEqual([]);
  });
});

describe('per-file sequence rule 3: cancel is a channel close; native peers watch for it', () => {
  it('cancelling sends nothing and closes at once', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'cancel' })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      { type: 'fail', code: 'ERR_CANCELLED', message: 'the transfer was cancelled' },
      { type: 'close', flushMs: 0 },
    ]);
    expect(machine.state).toEqual({
      phase: 'failed',
      code: 'ERR_CANCELLED',
      message: 'the transfer was cancelled',
    });
  });

  it('a decline reaches the sender as a close while it waits for the ack, and it gives up at once', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'channel-closed' })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      { type: 'fail', code: 'ERR_PEER_CLOSED', message: 'the other device closed the connection' },
    ]);
  });

  it('a close mid-file fails the transfer', () => {
    const machine = streaming([NOTES]);
    expect(machine.handle({ type: 'channel-closed' })).toEqual([
      { type: 'fail', code: 'ERR_PEER_CLOSED', message: 'the other device closed the connection' },
    ]);
  });
});

describe('incompatible received by the sender', () => {
  it('mismatched ranges in place of the ack: fail with the remedy for this surface', () => {
    const machine = announced([NOTES]);
    const remote = { pv: 3, pvMin: 2, ver: '2.0.0' };
    const frame = fromNative({ type: 'incompatible', reason: 'ignore me', ...remote });
    const message = versionRemedy(LOCAL, remote, 'cli');
    expect(message).toContain('npm install -g ferry@latest');
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      { type: 'fail', code: 'ERR_INCOMPATIBLE_VERSION', message },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it("overlapping ranges mid-file: fail with the receiver's reason capped at 300 characters", () => {
    const machine = streaming([NOTES]);
    const frame = fromNative({ type: 'incompatible', reason: 'é'.repeat(400), ...LOCAL });
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      { type: 'fail', code: 'ERR_PEER_ABORTED', message: 'é'.repeat(300) },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('after the batch, an incompatible (a discarded last file) fails the transfer', () => {
    const machine = streaming([NOTES]);
    machine.handle({ type: 'file-streamed', index: 0 });
    const frame = fromNative({ type: 'incompatible', reason: 'notes.txt was discarded', ...LOCAL });
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      { type: 'clear-timer', timer: 'delivery' },
      { type: 'fail', code: 'ERR_PEER_ABORTED', message: 'notes.txt was discarded' },
      { type: 'close', flushMs: 0 },
    ]);
  });
});

describe('versioning: an ack whose ranges miss is answered with incompatible', () => {
  it('the sender tells the receiver in its own words, as text, and fails with its remedy', () => {
    const machine = announced([NOTES], { remedySurface: 'desktop' });
    const remote = { pv: 5, pvMin: 4 };
    const frame = fromNative({ type: 'ack', id: 'f-1', offset: 0, ...remote });
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      {
        type: 'send',
        frame: textFrame(
          json({ type: 'incompatible', reason: versionReasonForPeer(LOCAL, remote), ...LOCAL }),
        ),
      },
      { type: 'clear-timer', timer: 'ack' },
      {
        type: 'fail',
        code: 'ERR_INCOMPATIBLE_VERSION',
        message: versionRemedy(LOCAL, remote, 'desktop'),
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('relay size cap: a sender refuses a file over 2 GB on a relayed route', () => {
  const BIG: SenderFile = { id: 'big', fileName: 'disk.img', fileSize: 2 * 1024 ** 3 + 1 };
  const reason = 'disk.img is larger than the 2 GiB limit for relayed connections';

  it('on a relayed route: incompatible with a reason, as text, instead of metadata', () => {
    const machine = sender([BIG]);
    expect(machine.handle({ type: 'channel-open', relayed: true })).toEqual([
      { type: 'send', frame: textFrame(json({ type: 'incompatible', reason, ...LOCAL })) },
      { type: 'fail', code: 'ERR_RELAY_SIZE_CAP', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
  });

  it('on a direct route the same file goes out', () => {
    const machine = sender([BIG]);
    expect(machine.handle({ type: 'channel-open', relayed: false })[0]).toMatchObject({
      type: 'send',
      frame: { kind: 'text' },
    });
    expect(machine.state.phase).toBe('awaiting-ack');
  });

  it('a file of exactly 2 GiB is not over the cap', () => {
    const machine = sender([{ ...BIG, fileSize: 2 * 1024 ** 3 }]);
    machine.handle({ type: 'channel-open', relayed: true });
    expect(machine.state.phase).toBe('awaiting-ack');
  });

  it('the cap is checked per file, after earlier files went through', () => {
    const machine = sender([NOTES, BIG]);
    machine.handle({ type: 'channel-open', relayed: true });
    machine.handle({ type: 'frame', frame: ack('f-1') });
    expect(machine.handle({ type: 'file-streamed', index: 0 })).toEqual([
      { type: 'send', frame: END },
      { type: 'send', frame: textFrame(json({ type: 'incompatible', reason, ...LOCAL })) },
      { type: 'fail', code: 'ERR_RELAY_SIZE_CAP', message: reason },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('errors: a source file that changed on disk during the send', () => {
  it('the sender sends incompatible with a reason as text, no end marker, and fails locally', () => {
    const machine = streaming([NOTES, EMPTY]);
    expect(
      machine.handle({ type: 'source-changed', index: 0, detail: 'size went from 12 to 20 bytes' }),
    ).toEqual([
      {
        type: 'send',
        frame: textFrame(
          json({
            type: 'incompatible',
            reason: 'notes.txt changed on the sending device while it was being sent',
            ...LOCAL,
          }),
        ),
      },
      {
        type: 'fail',
        code: 'ERR_SOURCE_CHANGED',
        message:
          'notes.txt changed on disk while it was being sent (size went from 12 to 20 bytes)',
      },
      { type: 'close', flushMs: 2000 },
    ]);
    expect(machine.handle({ type: 'file-streamed', index: 0 })).toEqual([]);
  });

  it('an unreadable source stops the same way without sending local details', () => {
    const machine = streaming([NOTES]);
    expect(machine.handle({ type: 'source-unreadable', index: 0, detail: 'EIO /home/a' })).toEqual([
      {
        type: 'send',
        frame: textFrame(
          json({
            type: 'incompatible',
            reason: 'notes.txt could not be read on the sending device',
            ...LOCAL,
          }),
        ),
      },
      {
        type: 'fail',
        code: 'ERR_SOURCE_UNREADABLE',
        message: 'notes.txt could not be read (EIO /home/a)',
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('frame classification at the sender', () => {
  it('rule 2: a control frame over 1000 bytes is a protocol error that stops the transfer', () => {
    const machine = announced([NOTES]);
    const frame = fromNative({ type: 'ack', id: 'f-1', offset: 0, ver: 'v'.repeat(1000) });
    expect(machine.handle({ type: 'frame', frame })).toEqual([
      { type: 'clear-timer', timer: 'ack' },
      {
        type: 'fail',
        code: 'ERR_PROTOCOL',
        message:
          'the other device broke the transfer protocol: a control frame of more than 1000 bytes arrived',
      },
      { type: 'close', flushMs: 0 },
    ]);
  });

  it('rule 3: an unknown type is ignored', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'frame', frame: fromNative({ type: 'resume', at: 4 }) })).toEqual(
      [],
    );
    expect(machine.state.phase).toBe('awaiting-ack');
  });

  it('an ack for another file is a protocol error', () => {
    const machine = announced([NOTES]);
    expect(machine.handle({ type: 'frame', frame: ack('f-9') })).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message: 'the other device broke the transfer protocol: an ack arrived for a different file',
    });
  });

  it('an ack past the end of the file is refused, and the receiver told why', () => {
    const machine = announced([NOTES]);
    const actions = machine.handle({ type: 'frame', frame: ack('f-1', 13) });
    const reason = 'the receiving device asked to start notes.txt at byte 13, past its end';
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message: `the other device broke the transfer protocol: ${reason}`,
    });
    expect(actions).toContainEqual({
      type: 'send',
      frame: textFrame(json({ type: 'incompatible', reason, ...LOCAL })),
    });
  });

  it('an ack without an offset is a protocol error', () => {
    const machine = announced([NOTES]);
    expect(
      machine.handle({ type: 'frame', frame: fromNative({ type: 'ack', id: 'f-1' }) }),
    ).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message:
        'the other device broke the transfer protocol: an unusable ack arrived (offset is not a byte count)',
    });
  });

  it('a second ack while streaming is a protocol error', () => {
    const machine = streaming([NOTES]);
    expect(machine.handle({ type: 'frame', frame: ack('f-1') })).toContainEqual({
      type: 'fail',
      code: 'ERR_PROTOCOL',
      message:
        'the other device broke the transfer protocol: an ack arrived while no file was waiting for one',
    });
  });
});

describe('a file name too long to announce', () => {
  it('stops before sending a control frame over 1000 bytes', () => {
    const long: SenderFile = { id: 'l', fileName: `${'deep/'.repeat(200)}x.txt`, fileSize: 1 };
    const machine = sender([long]);
    expect(machine.handle({ type: 'channel-open', relayed: false })).toEqual([
      {
        type: 'send',
        frame: textFrame(
          json({
            type: 'incompatible',
            reason: 'file 1 has a name too long to announce, so the transfer stopped',
            ...LOCAL,
          }),
        ),
      },
      {
        type: 'fail',
        code: 'ERR_NAME_TOO_LONG',
        message: `${long.fileName} has a name too long to announce`,
      },
      { type: 'close', flushMs: 2000 },
    ]);
  });
});

describe('a batch the sender cannot start', () => {
  it('an empty batch is refused at creation', () => {
    expect(() => sender([])).toThrow(RangeError);
  });

  it('a size that is not a byte count is refused at creation', () => {
    expect(() => sender([{ ...NOTES, fileSize: 1.5 }])).toThrow(RangeError);
  });
});
