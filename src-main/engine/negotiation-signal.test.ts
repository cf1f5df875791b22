import { describe, expect, it } from 'vitest';
import { readNegotiationSignal } from './negotiation-signal';

const CANDIDATE = 'candidate:1 1 UDP 2122317823 192.0.2.7 50000 typ host';

describe('what the other peer relays through signaling', () => {
  it('reads descriptions and candidates in the shape browsers and Ferry peers send', () => {
    expect(readNegotiationSignal({ type: 'offer', sdp: 'v=0' })).toEqual({
      type: 'offer',
      sdp: 'v=0',
    });
    expect(
      readNegotiationSignal({
        type: 'candidate',
        candidate: { candidate: CANDIDATE, sdpMid: '0', sdpMLineIndex: 0 },
      }),
    ).toEqual({ type: 'candidate', candidate: { candidate: CANDIDATE, sdpMid: '0' } });
  });

  it('accepts a bare RTCIceCandidateInit and a candidate without a mid (the only m-line, 0)', () => {
    expect(readNegotiationSignal({ candidate: CANDIDATE, sdpMid: '0' })).toEqual({
      type: 'candidate',
      candidate: { candidate: CANDIDATE, sdpMid: '0' },
    });
    expect(
      readNegotiationSignal({ candidate: { candidate: CANDIDATE, sdpMLineIndex: 0 } }),
    ).toEqual({ type: 'candidate', candidate: { candidate: CANDIDATE, sdpMid: '0' } });
  });

  it('ignores end-of-candidates markers and anything that is no negotiation payload', () => {
    for (const payload of [
      { type: 'candidate', candidate: { candidate: '', sdpMid: '0' } },
      { type: 'rollback' },
      { type: 'offer', sdp: 42 },
      'v=0',
      null,
      [],
    ]) {
      expect(readNegotiationSignal(payload)).toBeUndefined();
    }
  });
});
