import type { RouteChoice } from '../../../src-shared/session/send-flow';
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
  return { createPeer: (role) => browserPeer(role, [...ice.servers], certificate) };
}
