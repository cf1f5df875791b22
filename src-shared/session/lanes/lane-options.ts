import type { PeerConnectionFactory } from '../ports';

/** What a runtime gives the lanes of either role (docs/protocol.md, "Lanes"). */
export interface LaneOptions {
  /**
   * Makes one more connection on the first one's route (ICE servers, certificate), with the lanes'
   * negotiated channel.
   */
  createPeer: PeerConnectionFactory;
  /**
   * Sender: the same, for a lane that sends packets sized for a LANE_PROBE_MTU path and proves its
   * path first (`lane-mtu`); a runtime without it never probes.
   */
  createProbingPeer?: PeerConnectionFactory;
  /** Sender: the connections to stripe over, the first included. */
  count: number;
  /**
   * Sender: lanes open only when the first connection's measured round trip is at least this
   * (LANE_MIN_ROUND_TRIP_MS); 0 opens them on any path.
   */
  minRoundTripMs: number;
  /**
   * Called before this side makes its first lane; the function it returns once the lanes are up or
   * will not be. The native engine switches SCTP settings for the lanes' associations there.
   */
  openingLanes?(): () => void;
  /**
   * Receiver: whether both sides agreed `lanes` in their capabilities, asked as each offer comes.
   * The session core sets it; without it no lane is answered (docs/protocol.md, "Lanes").
   */
  agreed?(): boolean;
}
