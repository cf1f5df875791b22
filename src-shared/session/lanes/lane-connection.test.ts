import { describe, expect, it } from 'vitest';
import type { PeerConnectionPort } from '../ports';
import { LaneConnection } from './lane-connection';

/** A lane's connection that records what the lane hands its stack. */
function recordingPeer(): { peer: PeerConnectionPort; remote: string[] } {
  const remote: string[] = [];
  const peer: PeerConnectionPort = {
    listen: () => () => undefined,
    setRemoteDescription: async ({ sdp }) => void remote.push(sdp),
    addRemoteCandidate: async () => undefined,
    close: () => undefined,
  };
  return { peer, remote };
}

const M_LINE = 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel';
const PRINT = 'a=fingerprint:sha-256 0A:1B:2C:3D';
const OTHER = 'a=fingerprint:sha-256 FF:EE:DD:CC';

// docs/protocol.md, "Lanes" and "Connection requirement": a lane's description is refused as
// the first connection's is.
describe('a lane offered a description with two a=fingerprint lines', () => {
  it.each([
    ['session', ['v=0', PRINT, OTHER, M_LINE, 'a=mid:0', '']],
    ['media', ['v=0', M_LINE, 'a=mid:0', PRINT, OTHER, '']],
  ])('at %s level is gone, and its stack never sees the description', (_, lines) => {
    const { peer, remote } = recordingPeer();
    const lane = new LaneConnection(1, peer);
    const reasons: string[] = [];
    lane.apply({ type: 'offer', sdp: lines.join('\r\n') }, (reason) => reasons.push(reason));
    expect(reasons).toEqual([expect.stringContaining('ERR_TWO_FINGERPRINTS')]);
    expect(remote).toEqual([]);
  });

  it('takes a description with one line', () => {
    const { peer, remote } = recordingPeer();
    const sdp = ['v=0', M_LINE, 'a=mid:0', PRINT, ''].join('\r\n');
    new LaneConnection(1, peer).apply({ type: 'answer', sdp }, () => undefined);
    expect(remote).toEqual([sdp]);
  });
});
