import type { IceServerEntry } from '../../src-shared/signaling/http-api';
import type { EngineTimeouts, PeerOptions } from './engine-options';
import { toNativeIceServers } from './native-ice-servers';
import { fetchIceServers } from './relay-credentials';

export interface RouteSetup {
  /** node-datachannel URL form. */
  iceServers: string[];
  relayOnly: boolean;
}

/**
 * The ICE configuration for one connection: host candidates only, the caller's own list, or the
 * server's list fetched once (STUN only, with a warning, when that fails).
 */
export async function setUpRoute(
  options: PeerOptions,
  timeouts: EngineTimeouts,
  warn: (message: string) => void,
): Promise<RouteSetup> {
  const route = options.route ?? 'any';
  if (route === 'host-only') return { iceServers: [], relayOnly: false };
  let entries: readonly IceServerEntry[];
  if (options.iceServers !== undefined) entries = options.iceServers;
  else {
    const fetched = await fetchIceServers(options.serverUrl, timeouts.relayCredentials);
    if (fetched.warning !== undefined) warn(fetched.warning);
    entries = fetched.servers;
  }
  return { iceServers: toNativeIceServers(entries), relayOnly: route === 'relay-only' };
}
