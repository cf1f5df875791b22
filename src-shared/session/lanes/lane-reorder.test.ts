import { describe, expect, it } from 'vitest';
import { binaryFrame, textFrame, type Frame } from '../../protocol/frame';
import { LANE_ACK_BYTES, LANE_REORDER_MAX_BYTES } from '../session-limits';
import { laneMarker, LaneReorder } from './lane-reorder';
import type { LaneAck } from './lane-schedule';

function reorder(lanes: number) {
  const delivered: Frame[] = [];
  const acks: LaneAck[] = [];
  const violations: string[] = [];
  const state = new LaneReorder(lanes, {
    deliver: (frame) => delivered.push(frame),
    acknowledge: (ack) => acks.push(ack),
    violation: (reason) => violations.push(reason),
  });
  const send = (lane: number, seq: number, frame: Frame): void => {
    state.take(lane, binaryFrame(laneMarker(seq)));
    state.take(lane, frame);
  };
  return { state, send, delivered, acks, violations };
}

describe('the receiver taking frames back into the sender’s order', () => {
  it('hands frames on by number, whichever lane brought them first, framing kept', () => {
    const { send, delivered, state } = reorder(3);
    send(2, 2, binaryFrame(new Uint8Array([2])));
    send(1, 1, textFrame('one'));
    expect(delivered).toEqual([]);
    expect(state.waiting).toBe(2);

    send(0, 0, textFrame('zero'));

    expect(delivered).toEqual([
      textFrame('zero'),
      textFrame('one'),
      binaryFrame(new Uint8Array([2])),
    ]);
    expect(state.waiting).toBe(0);
  });

  it('reports how far the order got and what arrived on each lane, once per LANE_ACK_BYTES', () => {
    const { send, acks } = reorder(2);
    const chunk = binaryFrame(new Uint8Array(LANE_ACK_BYTES / 2));
    send(1, 1, chunk);
    expect(acks).toEqual([]);
    send(1, 2, chunk);
    // Enough arrived, though nothing could be handed on yet.
    expect(acks).toEqual([{ next: 0, received: [0, LANE_ACK_BYTES] }]);

    send(0, 0, binaryFrame(new Uint8Array(1)));
    // Handing on the three frames is the next report's worth.
    expect(acks.at(-1)).toEqual({ next: 3, received: [1, LANE_ACK_BYTES] });
  });

  it('ends the link on a frame where a sequence marker belongs', () => {
    const { state, violations, delivered } = reorder(2);
    state.take(1, textFrame('{"type":"metadata"}'));

    expect(violations).toEqual(['lane 1 sent a frame where its sequence marker belongs']);
    expect(delivered).toEqual([]);
  });

  it('ends the link on a number already handed on, or taken twice', () => {
    const twice = reorder(2);
    twice.send(1, 1, textFrame('a'));
    twice.state.take(0, binaryFrame(laneMarker(1)));
    expect(twice.violations).toEqual(['lane 0 numbered a frame 1 while 0 was due']);

    const behind = reorder(2);
    behind.send(0, 0, textFrame('a'));
    behind.state.take(1, binaryFrame(laneMarker(0)));
    expect(behind.violations).toEqual(['lane 1 numbered a frame 0 while 1 was due']);
  });

  it('ends the link rather than hold more than LANE_REORDER_MAX_BYTES out of order', () => {
    const { send, violations, delivered } = reorder(2);
    const chunk = binaryFrame(new Uint8Array(1024 * 1024));
    // Frame 0 never comes.
    for (let seq = 1; violations.length === 0 && seq < 1000; seq += 1) send(1, seq, chunk);

    expect(violations).toEqual([
      `the sender ran more than ${LANE_REORDER_MAX_BYTES} bytes ahead of its order`,
    ]);
    expect(delivered).toEqual([]);
  });
});
