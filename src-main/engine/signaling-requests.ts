import { SignalingRequests } from '../../src-shared/http/signaling-requests';
import type { EngineTimeouts } from './engine-options';
import { nodeClock } from './node-clock';

/** The shared HTTP requests on Node's own fetch, with the engine's (test-shortened) deadlines. */
export function nativeSignalingRequests(
  serverUrl: string,
  timeouts: EngineTimeouts,
): SignalingRequests {
  return new SignalingRequests(
    serverUrl,
    { fetch: (url, init) => fetch(url, init), clock: nodeClock },
    {
      codeRequest: timeouts.codeRequest,
      relayCredentials: timeouts.relayCredentials,
      report: timeouts.report,
      release: timeouts.release,
    },
  );
}
