import { describe, expect, it } from 'vitest';
import { closeWithGrace } from './close-grace';
import { ManualClock } from './testing/manual-clock';

describe('a channel closed with a grace lets its connection go', () => {
  it('once the peer confirms the close, before the grace runs out, and only once', () => {
    const clock = new ManualClock();
    let letGo = 0;
    const confirmed = closeWithGrace(clock, 5000, () => (letGo += 1));
    clock.advance(4999);
    expect(letGo).toBe(0);
    confirmed();
    expect(letGo).toBe(1);
    clock.advance(10_000);
    confirmed();
    expect(letGo).toBe(1);
  });

  it('when the grace runs out without a confirmation', () => {
    const clock = new ManualClock();
    let letGo = 0;
    const confirmed = closeWithGrace(clock, 5000, () => (letGo += 1));
    clock.advance(4999);
    expect(letGo).toBe(0);
    clock.advance(1);
    expect(letGo).toBe(1);
    confirmed();
    expect(letGo).toBe(1);
  });

  it('on the clock’s next turn when there is no grace', () => {
    const clock = new ManualClock();
    let letGo = 0;
    closeWithGrace(clock, 0, () => (letGo += 1));
    clock.advance(0);
    expect(letGo).toBe(1);
  });
});
