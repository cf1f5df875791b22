import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayReason } from './display-reason';

describe('incompatible rule 4: whichever side displays the reason caps it at 300 characters', () => {
  it('a 1000-character reason shows its first 300', () => {
    expect(displayReason('x'.repeat(1000))).toBe('x'.repeat(300));
  });

  it('a reason of exactly 300 characters shows whole', () => {
    const reason = `${'y'.repeat(299)}z`;
    expect(displayReason(reason)).toBe(reason);
  });

  it('characters are code points, so an emoji counts once and is never split', () => {
    expect(displayReason('😀'.repeat(400))).toBe('😀'.repeat(300));
  });

  it('a short reason shows as given', () => {
    expect(displayReason('photo.jpg was discarded: 10 of 20 bytes arrived')).toBe(
      'photo.jpg was discarded: 10 of 20 bytes arrived',
    );
  });

  it('control characters cannot reach a terminal', () => {
    expect(displayReason('ok\u001b[2Jgone\u0007\u009b')).toBe('ok\ufffd[2Jgone\ufffd\ufffd');
  });

  it('no reason ever shows more than 300 code points', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\u001b', '\ud800'), maxLength: 400 }),
        (reason) => {
          expect([...displayReason(reason)].length).toBeLessThanOrEqual(300);
        },
      ),
    );
  });
});
