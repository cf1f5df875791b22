import { describe, expect, it } from 'vitest';
import { LINK_ALIVE_INTERVAL_MS, LINK_SILENCE_MS } from '../protocol/limits';
import { LinkWatch, reconnects } from './link-watch';
import { ManualClock } from './testing/manual-clock';

function watch() {
  const clock = new ManualClock();
  let alive = 0;
  let silent = 0;
  const link = new LinkWatch(
    clock,
    () => (alive += 1),
    () => (silent += 1),
  );
  return { clock, link, alive: () => alive, silent: () => silent };
}

describe('watching the link between peers that agreed reconnect', () => {
  it('says it is alive every second, whatever else goes out', () => {
    const { clock, link, alive } = watch();
    link.start();
    clock.advance(3 * LINK_ALIVE_INTERVAL_MS);
    expect(alive()).toBe(3);
  });

  it('a link that hears something keeps going; one silent for 4 s is lost, once', () => {
    const { clock, link, silent } = watch();
    link.start();
    for (let i = 0; i < 10; i += 1) {
      clock.advance(LINK_SILENCE_MS - 1);
      link.heard();
    }
    expect(silent()).toBe(0);
    clock.advance(LINK_SILENCE_MS);
    expect(silent()).toBe(1);
    clock.advance(10 * LINK_SILENCE_MS);
    expect(silent()).toBe(1);
  });

  it('stopped, it neither speaks nor judges', () => {
    const { clock, link, alive, silent } = watch();
    link.start();
    link.stop();
    clock.advance(10 * LINK_SILENCE_MS);
    expect([alive(), silent()]).toEqual([0, 0]);
  });

  it('is only for peers that can also resume and verify what was kept', () => {
    expect(reconnects(new Set(['reconnect']))).toBe(false);
    expect(reconnects(new Set(['reconnect', 'resume', 'verify']))).toBe(true);
  });
});
