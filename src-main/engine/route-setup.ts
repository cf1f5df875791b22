import type { IceServerEntry } from '../../src-shared/signaling/http-api';
import type { SignalingRequests } from '../../src-shared/http/signaling-requests';
import type { PeerOptions } from './engine-options';
import { hasRelay, toNativeIceServers } from './native-ice-servers';

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
  requests: SignalingRequests,
  warn: (message: string) => void,
  signal?: AbortSignal,
): Promise<RouteSetup> {
  const route = options.route ?? 'any';
  if (route === 'host-only') return { iceServers: [], relayOnly: false };
  let entries: readonly IceServerEntry[];
  if (options.iceServers !== undefined) entries = options.iceServers;
  else {
    const fetched = await requests.iceServers(signal);
    if (fetched.warning !== undefined) warn(fetched.warning);
    entries = fetched.servers;
  }
  const relayOnly = route === 'relay-only';
  if (relayOnly && !hasRelay(entries)) {
    warn(
      'only relayed routes are allowed, but no relay (TURN) server is known, so no route can form',
    );
  }
  return { iceServers: toNativeIceServers(entries), relayOnly };
}
