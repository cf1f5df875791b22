import { describe, expect, it } from 'vitest';
import { decodeSignal, encodeSignal, type SignalMessage } from './signal-message';

const LINE = 'candidate:1 1 udp 2113937151 192.0.2.2 50866 typ host generation 0';

describe('signal payloads', () => {
  it.each<SignalMessage>([
    { kind: 'description', description: { type: 'offer', sdp: 'v=0\r\n' } },
    { kind: 'description', description: { type: 'answer', sdp: 'v=0\r\n' } },
    { kind: 'candidate', candidate: { candidate: LINE, sdpMid: '0', sdpMLineIndex: 0 } },
  ])('survive the relay unchanged (%j)', (message) => {
    const relayed = JSON.parse(JSON.stringify(encodeSignal(message))) as unknown;
    expect(decodeSignal(relayed)).toEqual(message);
  });

  it('sends descriptions and candidates in the form peers relay', () => {
    expect(
      encodeSignal({ kind: 'description', description: { type: 'offer', sdp: 'v=0\r\n' } }),
    ).toEqual({ type: 'offer', sdp: 'v=0\r\n' });
    expect(
      encodeSignal({ kind: 'candidate', candidate: { candidate: LINE, sdpMid: '0' } }),
    ).toEqual({
      type: 'candidate',
      candidate: { candidate: LINE, sdpMid: '0', sdpMLineIndex: null },
    });
  });

  it.each<[string, unknown, SignalMessage]>([
    [
      'a flat RTCIceCandidateInit',
      { candidate: LINE, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'ab' },
      { kind: 'candidate', candidate: { candidate: LINE, sdpMid: '0', sdpMLineIndex: 0 } },
    ],
    [
      'node-datachannel’s candidate and mid',
      { type: 'candidate', candidate: `a=${LINE}`, mid: '0' },
      { kind: 'candidate', candidate: { candidate: LINE, sdpMid: '0' } },
    ],
    [
      'a candidate that names no m-line',
      { candidate: { candidate: LINE } },
      { kind: 'candidate', candidate: { candidate: LINE, sdpMLineIndex: 0 } },
    ],
    [
      'a description nested under sdp',
      { sdp: { type: 'answer', sdp: 'v=0\r\n' } },
      { kind: 'description', description: { type: 'answer', sdp: 'v=0\r\n' } },
    ],
  ])('accepts %s', (_case, payload, message) => {
    expect(decodeSignal(payload)).toEqual(message);
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
});
