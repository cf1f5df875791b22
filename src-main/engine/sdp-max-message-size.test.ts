import { describe, expect, it } from 'vitest';
import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../../src-shared/protocol';
import { withMaxMessageSize } from './sdp-max-message-size';

const ANSWER_WITHOUT_ATTRIBUTE = [
  'v=0',
  'o=rtc 1 0 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=mid:0',
  'a=sctp-port:5000',
  'a=setup:active',
  '',
].join('\r\n');

describe('the answer a browser reads', () => {
  it('gains a=max-message-size of 1 GiB when the native stack wrote none, so browsers send large chunks', () => {
    const rewritten = withMaxMessageSize(ANSWER_WITHOUT_ATTRIBUTE, SDP_MAX_MESSAGE_SIZE_BYTES);

    expect(rewritten.split('\r\n')).toContain('a=max-message-size:1073741824');
    expect(rewritten.split('\r\n').indexOf('a=max-message-size:1073741824')).toBe(
      rewritten.split('\r\n').indexOf('a=sctp-port:5000') + 1,
    );
  });

  it('has a smaller value the stack wrote replaced, never duplicated, and keeps its line endings', () => {
    const answer = ANSWER_WITHOUT_ATTRIBUTE.replace(
      'a=sctp-port:5000',
      'a=sctp-port:5000\r\na=max-message-size:262144',
    );

    const rewritten = withMaxMessageSize(answer, SDP_MAX_MESSAGE_SIZE_BYTES);

    expect(rewritten.match(/a=max-message-size:\d+/g)).toEqual(['a=max-message-size:1073741824']);
    expect(rewritten.endsWith('\r\n')).toBe(true);
    expect(rewritten.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('leaves a description without a data-channel section alone', () => {
    const audioOnly = 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\n';

    expect(withMaxMessageSize(audioOnly, SDP_MAX_MESSAGE_SIZE_BYTES)).toBe(audioOnly);
  });
});
