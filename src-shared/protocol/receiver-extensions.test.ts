import { describe, expect, it } from 'vitest';
import { formatBytes } from '../format/format-bytes';
import { binaryFrame, textFrame, type Frame } from './frame';
import { VERIFY_BLOCK_BYTES } from './limits';
import type { Capability } from './messages';
import { createReceiver, type ReceiverAction, type ReceiverMachine } from './receiver';

// The receiver's side of docs/protocol.md, "Capabilities", "Resume" and "Reconnect".
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const CAPS: Capability[] = ['verify', 'resume', 'reconnect'];
const SIZE = 3 * VERIFY_BLOCK_BYTES + 5;
const PREFIX = 'c'.repeat(64);
const text = (value: unknown): Frame => textFrame(JSON.stringify(value));
const REJOIN = '7e'.repeat(32);
const SENDER_CAPS = text({ type: 'ferry-caps', caps: CAPS, rejoin: REJOIN });
const METADATA = text({
  type: 'metadata',
  id: 'f-1',
  fileName: 'big.bin',
  fileSize: SIZE,
  index: 1,
  total: 1,
  totalBytes: SIZE,
  pv: 1,
  pvMin: 1,
});
const start = (offset: number): Frame => text({ type: 'ferry-start', id: 'f-1', offset });
const NO_PROGRESS = { type: 'set-timer', timer: 'no-progress', ms: 60_000 } as const;

const sent = (actions: ReceiverAction[]) =>
  actions.flatMap((action) =>
    action.type === 'send' && action.frame.kind === 'binary'
      ? [JSON.parse(new TextDecoder().decode(action.frame.bytes)) as Record<string, unknown>]
      : [],
  );

/** A native receiver that found `offset` bytes of the announced file already here. */
function offering(offset: number): { machine: ReceiverMachine; actions: ReceiverAction[] } {
  const machine = createReceiver({
    surface: 'native',
    caps: CAPS,
    local: LOCAL,
    remedySurface: 'cli',
    askBeforeAccepting: false,
  });
  machine.handle({ type: 'channel-open' });
  machine.handle({ type: 'frame', frame: SENDER_CAPS });
  const opening = machine.handle({ type: 'frame', frame: METADATA });
  expect(opening).toContainEqual({
    type: 'open-part',
    index: 0,
    path: 'big.bin',
    fileSize: SIZE,
    resume: { senderFileId: 'f-1' },
  });
  const actions = machine.handle({ type: 'part-opened', index: 0, offset, prefix: PREFIX });
  return { machine, actions };
}

describe('the receiver resuming a file', () => {
  it("answers the sender's capabilities, then offers what it kept before the ack", () => {
    const { actions } = offering(2 * VERIFY_BLOCK_BYTES);
    expect(sent(actions)).toEqual([
      { type: 'ferry-caps', caps: CAPS },
      { type: 'ferry-resume', id: 'f-1', offset: 2 * VERIFY_BLOCK_BYTES, prefix: PREFIX },
      { type: 'ack', id: 'f-1', offset: 2 * VERIFY_BLOCK_BYTES, ...LOCAL },
    ]);
  });

  // docs/protocol.md, "Reconnect": the room to meet again in derives from the sender's secret.
  it('agrees reconnect only with the sender’s secret, and keeps it for meeting again', () => {
    const { machine } = offering(0);
    expect(machine.agreed.has('reconnect')).toBe(true);
    expect(machine.rejoinSecret).toBe(REJOIN);

    const without = createReceiver({
      surface: 'native',
      caps: CAPS,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: false,
    });
    without.handle({ type: 'channel-open' });
    without.handle({ type: 'frame', frame: text({ type: 'ferry-caps', caps: CAPS }) });
    without.handle({ type: 'frame', frame: METADATA });
    const actions = without.handle({ type: 'part-opened', index: 0, offset: 0 });
    expect(sent(actions)[0]).toEqual({ type: 'ferry-caps', caps: ['verify', 'resume'] });
    expect(without.agreed.has('reconnect')).toBe(false);
    expect(without.rejoinSecret).toBeUndefined();
  });

  it('offers nothing it cannot vouch for: an offset off a block boundary acks 0', () => {
    const { actions } = offering(1000);
    expect(sent(actions).map((message) => [message.type, message.offset])).toEqual([
      ['ferry-caps', undefined],
      ['ack', 0],
    ]);
  });

  it('refuses file data before the sender says where the file starts', () => {
    const { machine } = offering(VERIFY_BLOCK_BYTES);
    const actions = machine.handle({ type: 'frame', frame: binaryFrame(new Uint8Array(3)) });
    expect(actions).toContainEqual(expect.objectContaining({ type: 'fail', code: 'ERR_PROTOCOL' }));
  });

  it('goes on from the offer when the sender agrees, and empties the file when it does not', () => {
    const agreed = offering(VERIFY_BLOCK_BYTES).machine;
    expect(agreed.handle({ type: 'frame', frame: start(VERIFY_BLOCK_BYTES) })).toContainEqual({
      type: 'file-resumed',
      index: 0,
      offset: VERIFY_BLOCK_BYTES,
    });
    const refused = offering(VERIFY_BLOCK_BYTES).machine;
    expect(refused.handle({ type: 'frame', frame: start(0) })).toContainEqual({
      type: 'restart-part',
      index: 0,
    });
    expect(refused.state).toMatchObject({ phase: 'receiving', written: 0, awaitingStart: false });
  });

  it('takes no other start than the one offered or 0', () => {
    const { machine } = offering(2 * VERIFY_BLOCK_BYTES);
    expect(machine.handle({ type: 'frame', frame: start(VERIFY_BLOCK_BYTES) })).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_PROTOCOL' }),
    );
  });

  it('counts the sender being alive as progress while it checks a long prefix', () => {
    const { machine } = offering(2 * VERIFY_BLOCK_BYTES);
    expect(machine.handle({ type: 'frame', frame: text({ type: 'ferry-alive' }) })).toEqual([
      NO_PROGRESS,
    ]);
  });

  it('keeps what arrived when the link goes, and discards it when the sender stops on purpose', () => {
    const lost = offering(VERIFY_BLOCK_BYTES).machine;
    expect(lost.handle({ type: 'channel-closed' })).toContainEqual({
      type: 'discard',
      index: 0,
      keep: true,
    });
    const stopped = offering(VERIFY_BLOCK_BYTES).machine;
    const reason = text({ type: 'incompatible', reason: 'big.bin changed', pv: 1, pvMin: 1 });
    expect(stopped.handle({ type: 'frame', frame: reason })).toContainEqual({
      type: 'discard',
      index: 0,
      keep: false,
    });
  });
});

describe('the receiver checking free space for a file it resumes', () => {
  function resumable(freeBytes: number, keptBytes?: number): ReceiverMachine {
    const machine = createReceiver({
      surface: 'native',
      caps: CAPS,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: false,
      checksFreeSpace: true,
      ...(keptBytes === undefined ? {} : { keptBytes }),
    });
    machine.handle({ type: 'channel-open' });
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    machine.handle({ type: 'frame', frame: METADATA });
    // Short of the whole file, a file that may resume is looked for before it is judged.
    expect(
      machine.handle({ type: 'free-space', index: 0, freeBytes, folder: '/dl' }),
    ).toContainEqual(
      expect.objectContaining({ type: 'open-part', resume: { senderFileId: 'f-1' } }),
    );
    return machine;
  }
  const KEPT = 2 * VERIFY_BLOCK_BYTES;

  it('needs only what the kept part lacks', () => {
    const machine = resumable(SIZE - KEPT);
    // The batch is this one file: what it still needs is what the batch still needs.
    const actions = machine.handle({ type: 'part-opened', index: 0, offset: KEPT, prefix: PREFIX });
    expect(sent(actions).map((message) => message.type)).toContain('ack');
  });

  it('refuses when even the rest does not fit, and keeps the part for a later try', () => {
    const machine = resumable(SIZE - KEPT - 1);
    const actions = machine.handle({ type: 'part-opened', index: 0, offset: KEPT, prefix: PREFIX });
    expect(actions[0]).toEqual({ type: 'discard', index: 0, keep: true });
    expect(actions).toContainEqual(
      expect.objectContaining({
        type: 'fail',
        code: 'ERR_DISK_FULL',
        message: `not enough free space in /dl: this needs ${formatBytes(SIZE - KEPT)} and ${formatBytes(SIZE - KEPT - 1)} is free`,
      }),
    );
    expect(sent(actions).map((message) => message.type)).toEqual(['incompatible']);
  });

  it('after a lost link, counts the kept part once, not as both kept and resumed', () => {
    const machine = resumable(SIZE - KEPT - 1, KEPT);
    const actions = machine.handle({ type: 'part-opened', index: 0, offset: KEPT, prefix: PREFIX });
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_DISK_FULL' }),
    );
  });

  it('removes a part it had only just created', () => {
    const machine = resumable(SIZE - 1);
    const actions = machine.handle({ type: 'part-opened', index: 0, offset: 0 });
    expect(actions[0]).toEqual({ type: 'discard', index: 0, keep: false });
  });
});

// docs/protocol.md, "Named outcomes".
describe('the receiver naming outcomes', () => {
  const outcome = (value: string): Frame => text({ type: 'ferry-outcome', outcome: value });
  const closes = (actions: ReceiverAction[]) => actions.filter((action) => action.type === 'close');

  /** A receiver asking its person about the batch, after the sender announced `senderCaps`. */
  function asking(
    senderCaps: Capability[] | undefined,
    surface: 'native' | 'browser' = 'native',
  ): { machine: ReceiverMachine; actions: ReceiverAction[] } {
    const machine = createReceiver({
      surface,
      caps: ['outcome'],
      local: LOCAL,
      remedySurface: surface === 'native' ? 'cli' : 'browser',
      askBeforeAccepting: true,
    });
    machine.handle({ type: 'channel-open' });
    if (senderCaps)
      machine.handle({ type: 'frame', frame: text({ type: 'ferry-caps', caps: senderCaps }) });
    const actions = machine.handle({ type: 'frame', frame: METADATA });
    expect(actions).toContainEqual(expect.objectContaining({ type: 'ask-accept' }));
    return { machine, actions };
  }

  it('answers a sender that announced `outcome` before asking, so its cancel can be named', () => {
    expect(sent(asking(['outcome']).actions)).toEqual([{ type: 'ferry-caps', caps: ['outcome'] }]);
    expect(sent(asking(['verify']).actions)).toEqual([]);
  });

  it('tells such a sender its person declined, then closes after the flush', () => {
    const { machine } = asking(['outcome']);
    const actions = machine.handle({ type: 'declined' });
    expect(sent(actions)).toEqual([{ type: 'ferry-outcome', outcome: 'declined' }]);
    expect(closes(actions)).toEqual([{ type: 'close', flushMs: 2000 }]);
    expect(machine.state).toMatchObject({ phase: 'failed', code: 'ERR_DECLINED' });
  });

  it('sends a browser receiver’s outcome as text, and still closes', () => {
    const { machine } = asking(['outcome'], 'browser');
    const actions = machine.handle({ type: 'cancel' });
    expect(actions).toContainEqual({
      type: 'send',
      frame: textFrame('{"type":"ferry-outcome","outcome":"cancelled"}'),
    });
    expect(closes(actions)).toEqual([{ type: 'close', flushMs: 2000 }]);
  });

  it('declines and cancels with the plain close, sending nothing, toward a spec-only sender', () => {
    for (const event of [{ type: 'declined' }, { type: 'cancel' }] as const) {
      const { machine } = asking(undefined);
      const actions = machine.handle(event);
      expect(actions.filter((action) => action.type === 'send')).toEqual([]);
      expect(closes(actions)).toEqual([{ type: 'close', flushMs: 0 }]);
    }
  });

  it('says nothing of a decline that no person made (its target failed)', () => {
    const { machine } = asking(['outcome']);
    const actions = machine.handle({ type: 'declined', unable: true });
    expect(actions.filter((action) => action.type === 'send')).toEqual([]);
  });

  it("fails with the sender's cancel mid-file, keeping what arrived for a resume", () => {
    const machine = createReceiver({
      surface: 'native',
      caps: ['outcome', 'resume', 'verify'],
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: false,
    });
    machine.handle({ type: 'channel-open' });
    machine.handle({
      type: 'frame',
      frame: text({ type: 'ferry-caps', caps: ['outcome', 'resume', 'verify'] }),
    });
    machine.handle({ type: 'frame', frame: METADATA });
    machine.handle({ type: 'part-opened', index: 0, offset: 0 });
    const actions = machine.handle({ type: 'frame', frame: outcome('cancelled') });
    expect(actions[0]).toEqual({ type: 'discard', index: 0, keep: true });
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_PEER_CANCELLED',
      message: 'stopped by the other person',
    });
  });

  it('ignores an outcome from a sender that did not announce it, and a "declined" from any sender', () => {
    const spec = asking(undefined).machine;
    expect(spec.handle({ type: 'frame', frame: outcome('cancelled') })).toEqual([]);
    const ferry = asking(['outcome']).machine;
    expect(ferry.handle({ type: 'frame', frame: outcome('declined') })).toEqual([]);
    expect(ferry.state.phase).toBe('awaiting-answer');
  });
});
