import type { RouteChoice } from '../../src-shared/session/ports';
import type { Clock, PeerConnectionFactory } from '../../src-shared/session/ports';
import type { LaneOptions } from '../../src-shared/session/lanes/lane-options';
import {
  LANE_COUNT,
  LANE_MIN_ROUND_TRIP_MS,
  LANE_PROBE_MTU,
} from '../../src-shared/session/session-limits';
import type { SignalingRequests } from '../../src-shared/http/signaling-requests';
import type { PeerOptions } from './engine-options';
import { processSctp } from './sctp-settings';
import { nodeClock } from './node-clock';
import { PeerLink, type PeerLinkOptions } from './peer-link';
import { setUpRoute } from './route-setup';
import type { TransferControl } from './transfer';

export interface NativeRoute {
  clock: Clock;
  /** The flow's `chooseRoute`: fetches the ICE configuration once, then makes PeerLinks with it. */
  choose(stop: AbortSignal): Promise<RouteChoice>;
  /** The channel of the newest attempt is open: tells the owner which route it took. */
  opened(): void;
  /**
   * Extra connections on the chosen route for the `lanes` extension (docs/protocol.md, "Lanes");
   * undefined when this peer does not stripe (`lanes` 1, or the extensions are off).
   */
  lanes(): LaneOptions | undefined;
}

/** How many connections this peer stripes over; 1 means it does not speak `lanes`. */
export function laneCount(options: PeerOptions): number {
  return options.extensions === false ? 1 : (options.lanes ?? LANE_COUNT);
}

/**
 * Connection attempts on node-datachannel, keeping the newest one to report its route. Every
 * transfer of the engine starts here, so here the process's SCTP settings are put in place before
 * its first connection (sctp-settings.ts).
 */
export function nativeRoute(
  options: PeerOptions,
  requests: SignalingRequests,
  control: TransferControl,
): NativeRoute {
  processSctp.useNative();
  let latest: PeerLink | undefined;
  let chosen: Omit<PeerLinkOptions, 'role'> | undefined;
  const count = laneCount(options);
  return {
    clock: nodeClock,
    async choose(stop) {
      const route = await setUpRoute(options, requests, control.warn, stop);
      chosen = {
        ...route,
        ...(options.identity === undefined ? {} : { pemFile: options.identity.pemFile }),
      };
      const settings = chosen;
      return {
        createPeer: (role, negotiated) => {
          latest = new PeerLink({ role, ...settings, ...(negotiated && { negotiated }) });
          return latest;
        },
      };
    },
    opened() {
      if (latest !== undefined) control.connected(latest.route());
    },
    lanes() {
      const settings = chosen;
      if (count <= 1 || settings === undefined) return undefined;
      // A probing lane differs only by its packet size (docs/protocol.md, "Larger packets").
      const lanePeer =
        (mtu?: number): PeerConnectionFactory =>
        (role, negotiated) =>
          new PeerLink({
            role,
            ...settings,
            ...(negotiated && { negotiated }),
            ...(mtu && { mtu }),
          });
      return {
        count,
        minRoundTripMs: options.laneMinRoundTripMs ?? LANE_MIN_ROUND_TRIP_MS,
        createPeer: lanePeer(),
        createProbingPeer: lanePeer(LANE_PROBE_MTU),
        openingLanes: processSctp.openingLanes,
      };
    },
  };
}
