import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MachineTimers } from './machine-timers';

describe('the timers a machine asks its driver for', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a timer by name when it fires, once', () => {
    const fired: string[] = [];
    const timers = new MachineTimers<'ack'>((timer) => fired.push(timer));
    timers.apply({ type: 'set-timer', timer: 'ack', ms: 120_000 });
    vi.advanceTimersByTime(119_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(200_000);
    expect(fired).toEqual(['ack']);
  });

  it('re-arms a timer that is set again and forgets one that is cleared', () => {
    const fired: string[] = [];
    const timers = new MachineTimers<'ack' | 'drain'>((timer) => fired.push(timer));
    timers.apply({ type: 'set-timer', timer: 'ack', ms: 1000 });
    timers.apply({ type: 'set-timer', timer: 'drain', ms: 1000 });
    vi.advanceTimersByTime(600);
    timers.apply({ type: 'set-timer', timer: 'ack', ms: 1000 });
    timers.apply({ type: 'clear-timer', timer: 'drain' });
    vi.advanceTimersByTime(600);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(fired).toEqual(['ack']);
  });

  it('stops everything when the transfer ends', () => {
    const fired: string[] = [];
    const timers = new MachineTimers<'ack'>((timer) => fired.push(timer));
    timers.apply({ type: 'set-timer', timer: 'ack', ms: 1000 });
    timers.clearAll();
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual([]);
  });
});
