import { describe, expect, it } from 'vitest';
import { binaryFrame, textFrame, type Frame } from './frame';
import { VERIFY_BLOCK_BYTES } from './limits';
import type { Capability } from './messages';
import { createSender, type SenderAction, type SenderFile, type SenderMachine } from './sender';

// The sender's side of docs/protocol.md, "Capabilities", "Verification" and "Resume".
const utf8 = new TextEncoder();
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const CAPS: Capability[] = ['verify', 'resume', 'reconnect'];
const REJOIN = '7e'.repeat(32);
const BIG: SenderFile = { id: 'f-1', fileName: 'big.bin', fileSize: 3 * VERIFY_BLOCK_BYTES + 5 };
const PREFIX = 'a'.repeat(64);
const fromNative = (value: unknown): Frame => binaryFrame(utf8.encode(JSON.stringify(value)));
const ack = (offset: number): Frame => fromNative({ type: 'ack', id: BIG.id, offset, ...LOCAL });
const resume = (offset: number, prefix = PREFIX): Frame =>
  fromNative({ type: 'ferry-resume', id: BIG.id, offset, prefix });
const RECEIVER_CAPS = fromNative({ type: 'ferry-caps', caps: ['verify', 'resume', 'teleport'] });

function sender(caps: Capability[] = CAPS): SenderMachine {
  const machine = createSender({
    files: [BIG],
    caps,
    rejoinSecret: REJOIN,
    local: LOCAL,
    surface: 'native',
    remedySurface: 'cli',
  });
  machine.handle({ type: 'channel-open', relayed: false });
  return machine;
}

const sends = (actions: SenderAction[]) =>
  actions.flatMap((action) =>
    action.type === 'send' && action.frame.kind === 'text'
      ? [JSON.parse(action.frame.text) as Record<string, unknown>]
      : [],
  );

describe('the sender with extensions', () => {
  it('announces its capabilities as the first frame, in text, before the metadata', () => {
    const machine = createSender({
      files: [BIG],
      caps: CAPS,
      rejoinSecret: REJOIN,
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
    });
    const actions = machine.handle({ type: 'channel-open', relayed: false });
    expect(sends(actions).map((message) => message.type)).toEqual(['ferry-caps', 'metadata']);
    expect(actions[0]).toEqual({
      type: 'send',
      frame: textFrame(
        `{"type":"ferry-caps","caps":["verify","resume","reconnect"],"rejoin":"${REJOIN}"}`,
      ),
    });
  });

  // docs/protocol.md, "Reconnect": the room to meet again in derives from this secret alone.
  it('offers reconnect only with a secret to meet again by', () => {
    const machine = createSender({
      files: [BIG],
      caps: CAPS,
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
    });
    const actions = machine.handle({ type: 'channel-open', relayed: false });
    expect(actions[0]).toEqual({
      type: 'send',
      frame: textFrame('{"type":"ferry-caps","caps":["verify","resume"]}'),
    });
  });

  it('agrees on what both announced, ignoring capabilities it does not know', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    expect([...machine.agreed]).toEqual(['verify', 'resume']);
  });

  it('without an answer to its announcement, honours any offset as the spec says and sends nothing new', () => {
    const machine = sender();
    const actions = machine.handle({ type: 'frame', frame: ack(100) });
    expect(actions).toContainEqual({ type: 'stream-file', index: 0, offset: 100 });
    expect(sends(actions)).toEqual([]);
  });

  it('checks the offered prefix before it seeks, and says where the bytes start', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    machine.handle({ type: 'frame', frame: resume(2 * VERIFY_BLOCK_BYTES) });
    const offset = 2 * VERIFY_BLOCK_BYTES;
    expect(machine.handle({ type: 'frame', frame: ack(offset) })).toContainEqual({
      type: 'check-prefix',
      index: 0,
      offset,
      prefix: PREFIX,
    });
    const started = machine.handle({ type: 'prefix-checked', index: 0, match: true });
    expect(sends(started)).toEqual([{ type: 'ferry-start', id: 'f-1', offset }]);
    expect(started).toContainEqual({ type: 'stream-file', index: 0, offset });
    expect(started).toContainEqual({ type: 'file-resumed', index: 0, offset });
  });

  it('starts at 0 when its own digests contradict the prefix', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    machine.handle({ type: 'frame', frame: resume(VERIFY_BLOCK_BYTES) });
    machine.handle({ type: 'frame', frame: ack(VERIFY_BLOCK_BYTES) });
    const started = machine.handle({ type: 'prefix-checked', index: 0, match: false });
    expect(sends(started)).toEqual([{ type: 'ferry-start', id: 'f-1', offset: 0 }]);
    expect(started).toContainEqual({ type: 'stream-file', index: 0, offset: 0 });
  });

  it('starts at 0 when a resuming receiver acks an offset it offered no prefix for', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    const started = machine.handle({ type: 'frame', frame: ack(VERIFY_BLOCK_BYTES) });
    expect(sends(started)).toEqual([{ type: 'ferry-start', id: 'f-1', offset: 0 }]);
  });

  it('refuses, with a reason, a resume off a block boundary', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    machine.handle({ type: 'frame', frame: resume(1000) });
    const actions = machine.handle({ type: 'frame', frame: ack(1000) });
    const [reason] = sends(actions).map((message) => message.reason);
    expect(reason).toBe(
      'the receiving device asked to resume big.bin at byte 1000, which is not on a block boundary',
    );
    expect(actions).toContainEqual(expect.objectContaining({ type: 'fail', code: 'ERR_PROTOCOL' }));
  });

  it('skips a file the receiver has whole: end and its digest, no byte', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    machine.handle({ type: 'frame', frame: resume(BIG.fileSize) });
    machine.handle({ type: 'frame', frame: ack(BIG.fileSize) });
    const actions = machine.handle({ type: 'prefix-checked', index: 0, match: true });
    expect(sends(actions).map((message) => message.type)).toEqual([
      'ferry-start',
      'end',
      'ferry-digest',
    ]);
    expect(actions.some((action) => action.type === 'stream-file')).toBe(false);
    expect(sends(actions)[2]).toEqual({ type: 'ferry-digest', id: 'f-1', sha256: PREFIX });
  });

  it("sends the digest after end, and finishes verified only on the receiver's confirmation", () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    machine.handle({ type: 'frame', frame: ack(0) });
    const ended = machine.handle({ type: 'file-streamed', index: 0, digest: PREFIX });
    expect(sends(ended).map((message) => message.type)).toEqual(['end', 'ferry-digest']);
    // A drained buffer is not enough: the receiver has not confirmed yet.
    expect(machine.handle({ type: 'buffered-amount', bytes: 0 })).not.toContainEqual(
      expect.objectContaining({ type: 'complete' }),
    );
    const confirmed = machine.handle({
      type: 'frame',
      frame: fromNative({ type: 'ferry-verified', id: 'f-1' }),
    });
    expect(confirmed).toContainEqual({
      type: 'complete',
      files: 1,
      bytes: BIG.fileSize,
      confirmed: true,
      verified: true,
    });
  });

  it("renews a later file's ack deadline while the receiver says it is alive, never the first's", () => {
    const second: SenderFile = { id: 'f-2', fileName: 'next.bin', fileSize: 10 };
    const machine = createSender({
      files: [BIG, second],
      caps: CAPS,
      rejoinSecret: REJOIN,
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
    });
    machine.handle({ type: 'channel-open', relayed: false });
    const alive = fromNative({ type: 'ferry-alive' });
    machine.handle({ type: 'frame', frame: fromNative({ type: 'ferry-caps', caps: CAPS }) });
    // The first ack may wait on a person: being alive says nothing about their answer.
    expect(machine.handle({ type: 'frame', frame: alive })).toEqual([]);
    machine.handle({ type: 'frame', frame: ack(0) });
    machine.handle({ type: 'file-streamed', index: 0, digest: PREFIX });
    expect(machine.state).toEqual({ phase: 'awaiting-ack', index: 1 });
    expect(machine.handle({ type: 'frame', frame: alive })).toEqual([
      { type: 'set-timer', timer: 'ack', ms: 120_000 },
    ]);
  });

  it('ignores extension messages from a receiver that did not announce them', () => {
    const machine = sender();
    machine.handle({ type: 'frame', frame: resume(VERIFY_BLOCK_BYTES) });
    const actions = machine.handle({ type: 'frame', frame: ack(0) });
    expect(actions).toContainEqual({ type: 'stream-file', index: 0, offset: 0 });
    expect(machine.agreed.size).toBe(0);
  });
});

// docs/protocol.md, "Named outcomes".
describe('the sender naming outcomes', () => {
  const OUTCOME_CAPS: Capability[] = ['outcome'];
  const outcome = (value: string): Frame => fromNative({ type: 'ferry-outcome', outcome: value });
  const closes = (actions: SenderAction[]) => actions.filter((action) => action.type === 'close');

  it('tells a receiver that announced `outcome` that its person cancelled, then closes after the flush', () => {
    const machine = sender(OUTCOME_CAPS);
    machine.handle({ type: 'frame', frame: fromNative({ type: 'ferry-caps', caps: ['outcome'] }) });
    const actions = machine.handle({ type: 'cancel' });
    expect(actions).toContainEqual({
      type: 'send',
      frame: textFrame('{"type":"ferry-outcome","outcome":"cancelled"}'),
    });
    expect(actions.at(-1)).toEqual({ type: 'close', flushMs: 2000 });
    expect(machine.state).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
  });

  it('closes plainly, sending nothing, toward a receiver that did not announce it', () => {
    const machine = sender(OUTCOME_CAPS);
    // A spec-only receiver never answers the announcement.
    const actions = machine.handle({ type: 'cancel' });
    expect(sends(actions)).toEqual([]);
    expect(closes(actions)).toEqual([{ type: 'close', flushMs: 0 }]);
  });

  it('closes plainly toward a Ferry receiver whose answer left `outcome` out', () => {
    const machine = sender([...CAPS, 'outcome']);
    machine.handle({ type: 'frame', frame: RECEIVER_CAPS });
    expect(sends(machine.handle({ type: 'cancel' }))).toEqual([]);
  });

  it("fails with the receiver's decline, even before the receiver answered its announcement", () => {
    const machine = sender(OUTCOME_CAPS);
    const actions = machine.handle({ type: 'frame', frame: outcome('declined') });
    expect(actions).toContainEqual({
      type: 'fail',
      code: 'ERR_PEER_DECLINED',
      message: 'declined by the other person',
    });
    expect(machine.state).toMatchObject({ phase: 'failed', code: 'ERR_PEER_DECLINED' });
  });

  it("fails with the receiver's cancel mid-file instead of a lost connection", () => {
    const machine = sender(OUTCOME_CAPS);
    machine.handle({ type: 'frame', frame: fromNative({ type: 'ferry-caps', caps: ['outcome'] }) });
    machine.handle({ type: 'frame', frame: ack(0) });
    expect(machine.state.phase).toBe('streaming');
    machine.handle({
      type: 'frame',
      frame: textFrame('{"type":"ferry-outcome","outcome":"cancelled"}'),
    });
    expect(machine.state).toMatchObject({ phase: 'failed', code: 'ERR_PEER_CANCELLED' });
    // The close that follows changes nothing.
    expect(machine.handle({ type: 'channel-closed' })).toEqual([]);
  });

  it('ignores an outcome when it did not offer `outcome`, or one it cannot read', () => {
    const spec = sender([]);
    expect(spec.handle({ type: 'frame', frame: outcome('declined') })).toEqual([]);
    const ferry = sender(OUTCOME_CAPS);
    expect(ferry.handle({ type: 'frame', frame: outcome('shrugged') })).toEqual([]);
    expect(ferry.handle({ type: 'channel-closed' })).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_PEER_CLOSED' }),
    );
  });
});

// docs/protocol.md, "Progress": the receiver's reports are what the sender's screen shows.
describe('the sender told how far the receiver got', () => {
  const progress = (index: number, bytes: number): Frame =>
    fromNative({ type: 'ferry-progress', index, bytes });
  const reports = (actions: SenderAction[]) =>
    actions.filter((action) => action.type === 'peer-progress');

  it('passes each report on as the file and bytes the receiver has taken', () => {
    const machine = sender(['progress']);
    machine.handle({
      type: 'frame',
      frame: fromNative({ type: 'ferry-caps', caps: ['progress'] }),
    });
    machine.handle({ type: 'frame', frame: ack(0) });
    expect(reports(machine.handle({ type: 'frame', frame: progress(1, 4096) }))).toEqual([
      { type: 'peer-progress', index: 0, bytes: 4096 },
    ]);
  });

  it('ignores a report that cannot be true: no such file, or more than the file holds', () => {
    const machine = sender(['progress']);
    machine.handle({
      type: 'frame',
      frame: fromNative({ type: 'ferry-caps', caps: ['progress'] }),
    });
    machine.handle({ type: 'frame', frame: ack(0) });
    expect(reports(machine.handle({ type: 'frame', frame: progress(2, 1) }))).toEqual([]);
    expect(
      reports(machine.handle({ type: 'frame', frame: progress(1, BIG.fileSize + 1) })),
    ).toEqual([]);
  });

  it('ignores reports when the receiver never named progress', () => {
    const machine = sender(['progress']);
    machine.handle({ type: 'frame', frame: fromNative({ type: 'ferry-caps', caps: ['verify'] }) });
    machine.handle({ type: 'frame', frame: ack(0) });
    expect(reports(machine.handle({ type: 'frame', frame: progress(1, 4096) }))).toEqual([]);
  });
});
