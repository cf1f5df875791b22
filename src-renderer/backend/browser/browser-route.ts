import type { LaneOptions } from '../../../src-shared/session/lanes/lane-options';
import type { RouteChoice } from '../../../src-shared/session/ports';
import { LANE_COUNT, LANE_MIN_ROUND_TRIP_MS } from '../../../src-shared/session/session-limits';
import { pageCertificate } from './browser-identity';
import { browserPeer } from './browser-peer';
import type { SignalingRequests } from '../../../src-shared/http/signaling-requests';

/** The flows' `chooseRoute` in a browser: the server's ICE list, fetched once per transfer. */
export async function browserRoute(
  requests: SignalingRequests,
  stop: AbortSignal,
): Promise<RouteChoice> {
  const [ice, certificate] = await Promise.all([requests.iceServers(stop), pageCertificate()]);
  if (ice.warning) console.warn(`Ferry: ${ice.warning}`);
  return {
    createPeer: (role, negotiated) =>
      browserPeer({ role, iceServers: [...ice.servers], certificate, negotiated }),
  };
}

/**
 * How a receiving page answers a native sender's lanes (docs/protocol.md, "Lanes"): with more
 * RTCPeerConnections on the route its first connection took. Over a long path one association
 * into Chromium stalls near 1–2 MiB/s (docs/performance.md, "The browser side"), and each lane is
 * an association with its own socket and window. A page never stripes what it sends: it announces
 * `lanes` only when receiving, so the count and the round-trip floor, a sender's, go unused here.
 */
export function answeredLanes(route: RouteChoice): LaneOptions {
  return {
    count: LANE_COUNT,
    minRoundTripMs: LANE_MIN_ROUND_TRIP_MS,
    createPeer: route.createPeer,
  };
}
