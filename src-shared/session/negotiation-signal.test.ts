import { describe, expect, it } from 'vitest';
import {
  dataChannelMid,
  decodeSignal,
  encodeSignal,
  type NegotiationSignal,
} from './negotiation-signal';

const LINE = 'candidate:1 1 udp 2113937151 192.0.2.2 50866 typ host generation 0';

describe('signal payloads', () => {
  it.each<NegotiationSignal>([
    { type: 'offer', sdp: 'v=0\r\n' },
    { type: 'answer', sdp: 'v=0\r\n', attempt: 2 },
    { type: 'candidate', candidate: { candidate: LINE, sdpMid: '0', sdpMLineIndex: 0 } },
    { type: 'candidate', candidate: { candidate: LINE, sdpMid: '0' }, attempt: 3 },
  ])('survive the relay unchanged (%j)', (signal) => {
    const relayed = JSON.parse(JSON.stringify(encodeSignal(signal))) as unknown;
    expect(decodeSignal(relayed)).toEqual(signal);
  });

  it('sends descriptions and candidates in the form a browser produces', () => {
    expect(encodeSignal({ type: 'offer', sdp: 'v=0\r\n' })).toEqual({
      type: 'offer',
      sdp: 'v=0\r\n',
    });
    expect(
      encodeSignal({ type: 'candidate', candidate: { candidate: LINE, sdpMid: '0' } }),
    ).toEqual({ type: 'candidate', candidate: { candidate: LINE, sdpMid: '0' } });
  });

  it.each<[string, unknown, NegotiationSignal]>([
    [
      'a flat RTCIceCandidateInit',
      { candidate: LINE, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'ab' },
      { type: 'candidate', candidate: { candidate: LINE, sdpMid: '0', sdpMLineIndex: 0 } },
    ],
    [
      'node-datachannel’s candidate and mid, with the a= prefix',
      { type: 'candidate', candidate: `a=${LINE}`, mid: '0' },
      { type: 'candidate', candidate: { candidate: LINE, sdpMid: '0' } },
    ],
    [
      'a candidate that names its m-line by index only',
      { type: 'candidate', candidate: { candidate: LINE, sdpMLineIndex: 0 } },
      { type: 'candidate', candidate: { candidate: LINE, sdpMLineIndex: 0 } },
    ],
    [
      'a candidate that names no m-line',
      { candidate: { candidate: LINE } },
      { type: 'candidate', candidate: { candidate: LINE } },
    ],
    [
      'a description nested under sdp',
      { sdp: { type: 'answer', sdp: 'v=0\r\n' } },
      { type: 'answer', sdp: 'v=0\r\n' },
    ],
  ])('accepts %s', (_case, payload, signal) => {
    expect(decodeSignal(payload)).toEqual(signal);
  });

  it.each<[string, unknown]>([
    ['nothing', null],
    ['a string', 'offer'],
    ['a description of another type', { type: 'pranswer', sdp: 'v=0' }],
    ['a description without sdp', { type: 'offer' }],
    ['the end-of-candidates marker', { type: 'candidate', candidate: { candidate: '' } }],
    ['a candidate that is a number', { candidate: 7 }],
    ['an unknown shape', { renegotiate: true }],
  ])('ignores %s', (_case, payload) => {
    expect(decodeSignal(payload)).toBeUndefined();
  });

  it('finds the data channel’s mid for a candidate that names none', () => {
    const sdp = 'v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:data\r\n';
    expect(dataChannelMid(sdp)).toBe('data');
    expect(dataChannelMid(sdp, 1)).toBeUndefined();
  });
});
