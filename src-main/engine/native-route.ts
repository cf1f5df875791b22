import type { RouteChoice } from '../../src-shared/session/send-flow';
import type { Clock } from '../../src-shared/session/ports';
import type { SignalingRequests } from '../../src-shared/http/signaling-requests';
import type { PeerOptions } from './engine-options';
import { nodeClock } from './node-clock';
import { PeerLink } from './peer-link';
import { setUpRoute } from './route-setup';
import type { TransferControl } from './transfer';

export interface NativeRoute {
  clock: Clock;
  /** The flow's `chooseRoute`: fetches the ICE configuration once, then makes PeerLinks with it. */
  choose(stop: AbortSignal): Promise<RouteChoice>;
  /** The channel of the newest attempt is open: tells the owner which route it took. */
  opened(): void;
}

/** Connection attempts on node-datachannel, keeping the newest one to report its route. */
export function nativeRoute(
  options: PeerOptions,
  requests: SignalingRequests,
  control: TransferControl,
): NativeRoute {
  let latest: PeerLink | undefined;
  return {
    clock: nodeClock,
    async choose(stop) {
      const route = await setUpRoute(options, requests, control.warn, stop);
      return {
        createPeer: (role) => {
          latest = new PeerLink({
            role,
            ...route,
            ...(options.identity === undefined ? {} : { pemFile: options.identity.pemFile }),
          });
          return latest;
        },
      };
    },
    opened() {
      if (latest !== undefined) control.connected(latest.route());
    },
  };
}
