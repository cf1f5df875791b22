import { describe, expect, it } from 'vitest';
import {
  LANE_OUTSTANDING_START_BYTES,
  LANE_RATE_INTERVAL_MS,
  LANE_WINDOW_BYTES,
} from '../session-limits';
import { LaneSchedule } from './lane-schedule';

const FRAME = 256 * 1024;
const MiB = 1024 * 1024;

/** A schedule over lanes that are all open, on a clock the test moves by hand. */
function scheduleOf(lanes: number): { schedule: LaneSchedule; wait(ms: number): void } {
  let now = 0;
  const schedule = new LaneSchedule(lanes, () => now);
  for (let lane = 1; lane < lanes; lane += 1) schedule.open(lane);
  return {
    schedule,
    wait: (ms) => {
      now += ms;
    },
  };
}

describe('the sender choosing a lane for each frame', () => {
  it('numbers frames in order and spreads them over idle lanes in turn', () => {
    const { schedule } = scheduleOf(3);
    const placed = [0, 1, 2, 3, 4, 5].map(() => schedule.place(FRAME));

    expect(placed.map(({ seq }) => seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(placed.map(({ lane }) => lane)).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('gives a listed lane no frame before it opens, and its turn from then on', () => {
    const schedule = new LaneSchedule(3, () => 0);
    schedule.open(2);
    const before = [0, 1, 2, 3].map(() => schedule.place(FRAME).lane);
    schedule.open(1);
    const after = [0, 1, 2].map(() => schedule.place(FRAME).lane);

    expect(before).toEqual([0, 2, 0, 2]);
    // Idle, it takes the very next frame.
    expect(after[0]).toBe(1);
  });

  it('sends past a lane that stopped delivering, and back to it once it caught up', () => {
    const { schedule, wait } = scheduleOf(2);
    for (let frame = 0; frame < 8; frame += 1) schedule.place(FRAME);
    // In a second lane 1 delivered its 1 MiB and lane 0 nothing of its own.
    wait(1000);
    schedule.acknowledge({ next: 0, received: [0, MiB] });

    expect([0, 1, 2].map(() => schedule.place(FRAME).lane)).toEqual([1, 1, 1]);

    wait(1000);
    schedule.acknowledge({ next: 0, received: [MiB, MiB + 3 * FRAME] });
    expect(schedule.place(FRAME).lane).toBe(0);
  });

  it('gives a lane measured slow its next frame while it has less than two outstanding', () => {
    const { schedule, wait } = scheduleOf(2);
    for (let frame = 0; frame < 8; frame += 1) schedule.place(FRAME);
    wait(LANE_RATE_INTERVAL_MS);
    schedule.acknowledge({ next: 0, received: [FRAME, FRAME] });
    for (let frame = 0; frame < 2; frame += 1) schedule.place(FRAME);
    // Over the next interval lane 0 delivered at 2 MiB/s and lane 1 at 1 MiB/s, both still busy;
    // then lane 1 caught up to one frame outstanding.
    wait(LANE_RATE_INTERVAL_MS);
    schedule.acknowledge({ next: 0, received: [3 * FRAME, 2 * FRAME] });
    schedule.acknowledge({ next: 0, received: [3 * FRAME, 4 * FRAME] });

    // Lane 0 has more room, but a lane given one frame at a time could never be measured faster.
    expect(schedule.place(FRAME).lane).toBe(1);
    expect(schedule.place(FRAME).lane).toBe(0);
  });

  it('gives a lane more again once it delivers everything a low measure allowed it', () => {
    const { schedule, wait } = scheduleOf(1);
    const framesUntilBlocked = (): number => {
      let frames = 0;
      do {
        schedule.place(FRAME);
        frames += 1;
      } while (!schedule.blocked);
      return frames;
    };
    framesUntilBlocked();
    // A whole interval with nothing delivered while it had frames: measured as stopped.
    wait(LANE_RATE_INTERVAL_MS);
    schedule.acknowledge({ next: 0, received: [0] });
    wait(LANE_RATE_INTERVAL_MS);
    schedule.acknowledge({ next: 0, received: [0] });
    // Then all of it arrives: the lane was held back, not slow.
    wait(LANE_RATE_INTERVAL_MS);
    schedule.acknowledge({ next: 4, received: [LANE_OUTSTANDING_START_BYTES] });

    expect(framesUntilBlocked()).toBeGreaterThan(LANE_OUTSTANDING_START_BYTES / FRAME);
  });

  it('holds the session back when every lane has what it may, until a report makes room', () => {
    const { schedule, wait } = scheduleOf(2);
    const frames = (2 * LANE_OUTSTANDING_START_BYTES) / FRAME;
    for (let frame = 0; frame < frames; frame += 1) schedule.place(FRAME);
    expect(schedule.blocked).toBe(true);

    wait(100);
    schedule.acknowledge({ next: 1, received: [FRAME, 0] });
    expect(schedule.blocked).toBe(false);
  });

  it('holds the session back at the window while the oldest frame is still missing', () => {
    const { schedule, wait } = scheduleOf(4);
    const frames = LANE_WINDOW_BYTES / FRAME;
    let arrived = [0, 0, 0, 0];
    for (let frame = 0; frame < frames; frame += 1) {
      const { lane } = schedule.place(FRAME);
      // Everything arrives except frame 0, so nothing can be handed on.
      wait(10);
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
    const { schedule } = scheduleOf(2);
    schedule.place(FRAME);

    expect(schedule.acknowledge({ next: 2, received: [FRAME, 0] })).toBe(false);
    expect(schedule.acknowledge({ next: 1, received: [FRAME + 1, 0] })).toBe(false);
    expect(schedule.acknowledge({ next: 1, received: [FRAME] })).toBe(false);
    expect(schedule.acknowledge({ next: 1, received: [FRAME, 0] })).toBe(true);
    expect(schedule.acknowledge({ next: 0, received: [FRAME, 0] })).toBe(false);
  });
});
