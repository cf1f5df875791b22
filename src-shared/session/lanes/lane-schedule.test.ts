import { describe, expect, it } from 'vitest';
import { LANE_OUTSTANDING_MAX_BYTES, LANE_WINDOW_BYTES } from '../session-limits';
import { LaneSchedule } from './lane-schedule';

const FRAME = 256 * 1024;

describe('the sender choosing a lane for each frame', () => {
  it('numbers frames in order and spreads them over idle lanes in turn', () => {
    const schedule = new LaneSchedule(3);
    const placed = [0, 1, 2, 3, 4, 5].map(() => schedule.place(FRAME));

    expect(placed.map(({ seq }) => seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(placed.map(({ lane }) => lane)).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('sends past a lane that is behind, and back to it once it catches up', () => {
    const schedule = new LaneSchedule(2);
    const perLaneCap = LANE_OUTSTANDING_MAX_BYTES / FRAME;
    for (let frame = 0; frame < 2 * perLaneCap; frame += 1) schedule.place(FRAME);
    // Lane 1 reported everything arrived; lane 0 nothing: lane 0 is behind.
    schedule.acknowledge({ next: 0, received: [0, perLaneCap * FRAME] });

    const next = [0, 1, 2].map(() => schedule.place(FRAME).lane);
    expect(next).toEqual([1, 1, 1]);

    schedule.acknowledge({ next: 0, received: [perLaneCap * FRAME, perLaneCap * FRAME] });
    expect(schedule.place(FRAME).lane).toBe(0);
  });

  it('holds the session back when every lane is at its cap, until a report makes room', () => {
    const schedule = new LaneSchedule(2);
    const frames = (2 * LANE_OUTSTANDING_MAX_BYTES) / FRAME;
    for (let frame = 0; frame < frames; frame += 1) schedule.place(FRAME);
    expect(schedule.blocked).toBe(true);

    schedule.acknowledge({ next: 1, received: [FRAME, 0] });
    expect(schedule.blocked).toBe(false);
  });

  it('holds the session back at the window while the oldest frame is still missing', () => {
    const schedule = new LaneSchedule(4);
    const frames = LANE_WINDOW_BYTES / FRAME;
    let arrived = [0, 0, 0, 0];
    for (let frame = 0; frame < frames; frame += 1) {
      const { lane } = schedule.place(FRAME);
      // Everything arrives except frame 0, so nothing can be handed on.
      if (frame > 0)
        arrived = arrived.map((bytes, index) => (index === lane ? bytes + FRAME : bytes));
      schedule.acknowledge({ next: 0, received: arrived });
    }
    expect(schedule.blocked).toBe(true);

    schedule.acknowledge({
      next: frames,
      received: arrived.map((bytes, lane) => (lane === 0 ? bytes + FRAME : bytes)),
    });
    expect(schedule.blocked).toBe(false);
  });

  it('ignores a report that cannot be true', () => {
    const schedule = new LaneSchedule(2);
    schedule.place(FRAME);

    expect(schedule.acknowledge({ next: 2, received: [FRAME, 0] })).toBe(false);
    expect(schedule.acknowledge({ next: 1, received: [FRAME + 1, 0] })).toBe(false);
    expect(schedule.acknowledge({ next: 1, received: [FRAME] })).toBe(false);
    expect(schedule.acknowledge({ next: 1, received: [FRAME, 0] })).toBe(true);
    expect(schedule.acknowledge({ next: 0, received: [FRAME, 0] })).toBe(false);
  });
});
