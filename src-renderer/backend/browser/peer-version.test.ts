import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_MIN } from '../../../src-shared/protocol/limits';
import { browserPeerVersion, PEER_VERSION_OVERRIDE } from './peer-version';

describe('what a browser peer advertises', () => {
  it('is this build’s protocol range, without a release string as the spec has browsers', () => {
    expect(browserPeerVersion({})).toEqual({ pv: PROTOCOL_VERSION, pvMin: PROTOCOL_VERSION_MIN });
  });

  it('follows the test seam when a test sets a range', () => {
    expect(browserPeerVersion({ [PEER_VERSION_OVERRIDE]: { pv: 2, pvMin: 2 } })).toEqual({
      pv: 2,
      pvMin: 2,
    });
  });

  it.each([
    { pv: 2, pvMin: 3 },
    { pv: 0, pvMin: 0 },
    { pv: '2', pvMin: 2 },
    { pv: 1.5, pvMin: 1 },
    'pv=2',
  ])('ignores a seam that is no protocol range (%j)', (override) => {
    expect(browserPeerVersion({ [PEER_VERSION_OVERRIDE]: override })).toEqual({
      pv: PROTOCOL_VERSION,
      pvMin: PROTOCOL_VERSION_MIN,
    });
  });
});
