import { describe, expect, it } from 'vitest';
import { ManualClock } from '../test-support/manual-time';
import { FixedWindowRateLimiter } from './fixed-window-rate-limiter';

describe('rate counters', () => {
  it('cleanup drops only the counters of lapsed windows', async () => {
    const clock = new ManualClock();
    const limiter = new FixedWindowRateLimiter(1, 60_000, clock.now);
    await limiter.hit('a');
    clock.advance(30_000);
    await limiter.hit('b');
    clock.advance(30_000);
    await limiter.sweep();
    expect(limiter.size).toBe(1);
    expect(await limiter.hit('b')).toBe(false);
    expect(await limiter.hit('a')).toBe(true);
  });
});
