import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_MIN } from './limits';
import { advertisedRange, localPeerVersion, negotiateVersion } from './version-negotiation';

describe('Versioning rule 2: compatible when max(localMin, remoteMin) <= min(localMax, remoteMax)', () => {
  it.each([
    [
      { pvMin: 1, pv: 1 },
      { pvMin: 1, pv: 1 },
      { compatible: true, version: 1 },
    ],
    [
      { pvMin: 1, pv: 3 },
      { pvMin: 2, pv: 5 },
      { compatible: true, version: 3 },
    ],
    [
      { pvMin: 2, pv: 5 },
      { pvMin: 1, pv: 3 },
      { compatible: true, version: 3 },
    ],
    [
      { pvMin: 1, pv: 2 },
      { pvMin: 2, pv: 3 },
      { compatible: true, version: 2 },
    ],
    [
      { pvMin: 1, pv: 1 },
      { pvMin: 2, pv: 2 },
      { compatible: false, outdated: 'local' },
    ],
    [
      { pvMin: 2, pv: 3 },
      { pvMin: 1, pv: 1 },
      { compatible: false, outdated: 'remote' },
    ],
  ])('local %o with remote %o gives %o', (local, remote, outcome) => {
    expect(negotiateVersion(local, remote)).toEqual(outcome);
  });

  it('they operate at the highest common version', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 5 }),
        (localMin, localSpan, remoteMin, remoteSpan) => {
          const local = { pvMin: localMin, pv: localMin + localSpan };
          const remote = { pvMin: remoteMin, pv: remoteMin + remoteSpan };
          const common = [];
          for (let v = 1; v <= 14; v += 1) {
            if (v >= localMin && v <= local.pv && v >= remoteMin && v <= remote.pv) common.push(v);
          }
          const negotiation = negotiateVersion(local, remote);
          if (common.length === 0) expect(negotiation.compatible).toBe(false);
          else expect(negotiation).toEqual({ compatible: true, version: Math.max(...common) });
        },
      ),
    );
  });
});

describe('Versioning rule 3: a peer that omits the fields is treated as version 1', () => {
  it('no pv and no pvMin read as 1 to 1', () => {
    expect(advertisedRange({})).toEqual({ min: 1, max: 1 });
  });

  it('a missing pvMin alone reads as 1', () => {
    expect(advertisedRange({ pv: 3 })).toEqual({ min: 1, max: 3 });
  });

  it('an old peer is compatible with this build', () => {
    expect(negotiateVersion(localPeerVersion(), {})).toEqual({ compatible: true, version: 1 });
  });

  it('an old peer is incompatible with a peer that dropped version 1', () => {
    expect(negotiateVersion({ pv: 3, pvMin: 2 }, {})).toEqual({
      compatible: false,
      outdated: 'remote',
    });
  });
});

describe("this build's advert", () => {
  it('advertises PROTOCOL_VERSION and PROTOCOL_VERSION_MIN with the release string', () => {
    expect(localPeerVersion('1.6.0')).toEqual({
      pv: PROTOCOL_VERSION,
      pvMin: PROTOCOL_VERSION_MIN,
      ver: '1.6.0',
    });
  });

  it('a browser omits ver', () => {
    expect(localPeerVersion()).toEqual({ pv: 1, pvMin: 1 });
  });
});
