import { startSignalingServer, type RunningServer } from '../../signaling-server';
import type { SignalingServerOptions } from '../../signaling-server/options';

const quiet = { info: () => undefined, error: () => undefined };

/** A real signaling server on a free loopback port; the caller closes it. */
export function startLoopbackServer(options: SignalingServerOptions = {}): Promise<RunningServer> {
  return startSignalingServer({ log: quiet, ...options, host: '127.0.0.1', port: 0 });
}
