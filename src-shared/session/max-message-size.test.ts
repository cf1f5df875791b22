import { describe, expect, it } from 'vitest';
import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../protocol/limits';
import { withMaxMessageSize } from './max-message-size';

const sdp = (...lines: string[]): string => `${lines.join('\r\n')}\r\n`;

const HEAD = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0'];
const APPLICATION = [
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=mid:0',
  'a=sctp-port:5000',
];
const GIB = `a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}`;

describe('the answer every Ferry receiver sends', () => {
  it('adds the maximum message size when it is missing', () => {
    expect(withMaxMessageSize(sdp(...HEAD, ...APPLICATION))).toBe(
      sdp(...HEAD, ...APPLICATION, GIB),
    );
  });

  it('raises a smaller one, such as Chromium’s own 262144', () => {
    const answer = sdp(...HEAD, ...APPLICATION, 'a=max-message-size:262144');
    expect(withMaxMessageSize(answer)).toBe(sdp(...HEAD, ...APPLICATION, GIB));
  });

  it('keeps a larger one and 0, which means no limit', () => {
    for (const value of [SDP_MAX_MESSAGE_SIZE_BYTES * 2, 0]) {
      const answer = sdp(...HEAD, ...APPLICATION, `a=max-message-size:${value}`);
      expect(withMaxMessageSize(answer)).toBe(answer);
    }
  });

  it('touches only the data-channel section, ending it where the next one starts', () => {
    const audio = ['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:1', 'a=max-message-size:5'];
    expect(withMaxMessageSize(sdp(...HEAD, ...APPLICATION, ...audio))).toBe(
      sdp(...HEAD, ...APPLICATION, GIB, ...audio),
    );
  });

  it('keeps bare newlines when the SDP uses them', () => {
    const answer = [...HEAD, ...APPLICATION].join('\n');
    expect(withMaxMessageSize(answer)).toBe([...HEAD, ...APPLICATION, GIB].join('\n'));
  });
});
