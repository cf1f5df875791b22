import { describe, expect, it } from 'vitest';
import type { RememberedDevice } from '../devices/remembered-devices';
import { pairedDevices } from './paired-devices';

const device = (name: string, rememberedAt: number, pairSecret?: string): RememberedDevice => ({
  fingerprint: `fp-${name}`,
  name,
  autoAccept: false,
  rememberedAt,
  ...(pairSecret === undefined ? {} : { pairSecret }),
});

describe('pairedDevices', () => {
  it('keeps only devices with a pair secret, the most recently remembered first', () => {
    const list = [
      device('old', 1, 'a'.repeat(64)),
      device('unpaired', 5),
      device('new', 9, 'b'.repeat(64)),
    ];
    expect(pairedDevices(list)).toEqual([
      { fingerprint: 'fp-new', name: 'new', pairSecret: 'b'.repeat(64) },
      { fingerprint: 'fp-old', name: 'old', pairSecret: 'a'.repeat(64) },
    ]);
  });
});
