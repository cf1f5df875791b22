import { SignalingRequests } from '../../src-shared/http/signaling-requests';
import type { EngineTimeouts } from './engine-options';
import { nodeClock } from './node-clock';
import { pinnedFetch } from './pinned-server';

/**
 * The shared HTTP requests on Node's own fetch, with the engine's (test-shortened) deadlines;
 * pinned to `serverCertificate` when one is given (PeerOptions).
 */
export function nativeSignalingRequests(
  serverUrl: string,
  timeouts: EngineTimeouts,
  serverCertificate?: string,
): SignalingRequests {
  return new SignalingRequests(
    serverUrl,
    {
      fetch:
        serverCertificate === undefined
          ? (url, init) => fetch(url, init)
          : pinnedFetch(serverCertificate),
      clock: nodeClock,
    },
    {
      codeRequest: timeouts.codeRequest,
      relayCredentials: timeouts.relayCredentials,
      report: timeouts.report,
      release: timeouts.release,
    },
  );
}
