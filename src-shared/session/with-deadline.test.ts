import { describe, expect, it } from 'vitest';
import { ManualClock } from './testing/manual-clock';
import { withDeadline } from './with-deadline';

describe('a wait with a deadline on the core’s clock', () => {
  it('gives what the promise settles to before the deadline', async () => {
    const clock = new ManualClock();
    let answer!: (value: string) => void;
    const waited = withDeadline(clock, new Promise<string>((resolve) => (answer = resolve)), 3000);
    clock.advance(2999);
    answer('stored');
    await expect(waited).resolves.toBe('stored');
    clock.advance(10_000);
  });

  it('rejects with its own words once the deadline passes', async () => {
    const clock = new ManualClock();
    const waited = withDeadline(clock, new Promise<never>(() => undefined), 3000, 'no answer');
    clock.advance(3000);
    await expect(waited).rejects.toThrow('no answer');
  });

  it('passes a failure on as an Error', async () => {
    const clock = new ManualClock();
    const waited = withDeadline(clock, Promise.reject(new Error('refused')), 3000);
    await expect(waited).rejects.toThrow('refused');
    const thrown = withDeadline(clock, Promise.reject('plain text'), 3000);
    await expect(thrown).rejects.toBeInstanceOf(Error);
  });
});
