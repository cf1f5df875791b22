import type { RouteChoice } from '../../../src-shared/session/send-flow';
import { browserPeer } from './browser-peer';
import { fetchIceServers } from './ice-server-list';

/** The flows' `chooseRoute` in a browser: the server's ICE list, fetched once per transfer. */
export async function browserRoute(
  signalingAddress: string,
  stop: AbortSignal,
): Promise<RouteChoice> {
  const ice = await fetchIceServers(signalingAddress, stop);
  if (ice.warning) console.warn(`Ferry: ${ice.warning}`);
  return { createPeer: (role) => browserPeer(role, ice.servers) };
}
