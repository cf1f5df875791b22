import { describe, expect, it } from 'vitest';
import { LINK_SILENCE_MS } from '../protocol/limits';
import { textFrame } from '../protocol/frame';
import type { TransferView } from '../transfer/transfer-view';
import { SessionChassis, type ChassisEvents } from './session-chassis';
import { CHANNEL_CLOSE_GRACE_MS } from './session-limits';
import { ManualClock } from './testing/manual-clock';
import { ScriptedChannel } from './testing/scripted-channel';

// What both sessions share (docs/architecture.md, "The session core").
const FAILED: TransferView = {
  phase: 'failed',
  direction: 'send',
  code: 'ERR_PEER_CLOSED',
  message: 'the other device closed the connection',
};
const PROGRESS: TransferView = {
  phase: 'transferring',
  direction: 'send',
  progress: {
    fileIndex: 1,
    fileCount: 1,
    fileName: 'a.bin',
    fileBytes: 5,
    fileSize: 10,
    bytesDone: 5,
    totalBytes: 10,
    bytesPerSecond: 0,
  },
};

function setUp(reconnectable = true, cancelled = new AbortController()) {
  const channel = new ScriptedChannel();
  const clock = new ManualClock();
  const published: TransferView[] = [];
  const heard: string[] = [];
  const events: ChassisEvents = {
    frame: () => heard.push('frame'),
    bufferedAmountLow: () => heard.push('low'),
    closed: () => heard.push('closed'),
    cancel: () => heard.push('cancel'),
    reconnectable: () => reconnectable,
  };
  const chassis = new SessionChassis(
    {
      channel,
      clock,
      framing: 'text',
      fingerprints: undefined,
      publish: (view) => published.push(view),
      cancelled: cancelled.signal,
    },
    events,
  );
  return { channel, clock, chassis, published, heard, cancelled };
}

describe('the session chassis', () => {
  it('publishes one final outcome, and nothing after it', () => {
    const { chassis, published } = setUp();
    chassis.publish(PROGRESS);
    chassis.publish(FAILED);
    chassis.publish(PROGRESS);
    expect(published).toEqual([PROGRESS, FAILED]);
    expect(chassis.kept).toEqual({ bytesDone: 5, totalBytes: 10 });
  });

  it('publishes no failure once the link was lost mid-batch, and says it was lost', () => {
    const { chassis, clock, published, heard } = setUp();
    chassis.link.start();
    clock.advance(LINK_SILENCE_MS);
    expect(heard).toEqual(['closed']);
    expect(chassis.lost).toBe(true);
    chassis.publish(FAILED);
    expect(published).toEqual([]);
  });

  it('lets a silent link be where nothing would be kept by a reconnect', () => {
    const { chassis, clock, heard } = setUp(false);
    chassis.link.start();
    clock.advance(LINK_SILENCE_MS);
    expect(heard).toEqual([]);
    expect(chassis.lost).toBe(false);
  });

  it('hands frames on, hears the cancel, and stops listening once released', () => {
    const { chassis, channel, heard, cancelled } = setUp();
    channel.receive(textFrame('{"type":"ack"}'));
    cancelled.abort();
    chassis.release();
    channel.receive(textFrame('{"type":"ack"}'));
    channel.peerCloses();
    expect(heard).toEqual(['frame', 'cancel']);
  });

  it('starts only on an open channel that nobody cancelled', () => {
    const opened: string[] = [];
    const cancelled = new AbortController();
    cancelled.abort();
    const early = setUp(true, cancelled);
    early.chassis.start(() => opened.push('open'));
    const closed = setUp();
    closed.channel.peerCloses();
    closed.heard.length = 0;
    closed.chassis.start(() => opened.push('open'));
    expect([opened, early.heard, closed.heard]).toEqual([[], ['cancel'], ['closed']]);
  });

  it('gives an abort reason its grace to land, and closes anything else at once', async () => {
    const { chassis, channel } = setUp();
    await chassis.close(0, false);
    const other = setUp();
    await other.chassis.close(2000, true);
    expect([channel.closes, other.channel.closes]).toEqual([[0], [CHANNEL_CLOSE_GRACE_MS]]);
  });
});
