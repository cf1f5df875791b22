// The signaling server of `npm run bench:wan`, with the web client on the same origin: the real
// web host program (src-main/web-host/main.ts, WITH_SIGNALING=1) run inside namespace b and
// listening on every address, so peers in namespace a reach it through the delay line and even
// signaling pays the emulated RTT.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeScriptArgs, type NetnsPair, type NetnsProcess } from '../../e2e/support/netns';
import { RENDERER_OUT } from '../../e2e/support/web-client/renderer-build';
import { LINE_ADDRESSES } from './link';

const WEB_HOST_MAIN = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../src-main/web-host/main.ts',
);
/** Every peer of the run connects from one address (10.232.0.1, or b's own for the browser). */
const GENEROUS_LIMITS = {
  MAX_CONNECTIONS_PER_IP: '100000',
  MAX_TURN_REQUESTS_PER_IP: '100000',
  MAX_CODE_REQUESTS_PER_IP: '100000',
};
const START_TIMEOUT_MS = 30_000;
const ENV = '/usr/bin/env';

export interface WanWebHost {
  /** http://10.232.0.2:<port>: the page, its API and both socket transports. */
  url: string;
  process: NetnsProcess;
}

/** Starts the web host in namespace b; `root` is the built renderer (served only by browser cells). */
export async function startWanWebHost(
  netns: NetnsPair,
  root: string = RENDERER_OUT,
): Promise<WanWebHost> {
  const env = {
    ...GENEROUS_LIMITS,
    PORT: '0',
    HOST: '0.0.0.0',
    WEB_ROOT: root,
    WITH_SIGNALING: '1',
  };
  const host = netns.b.spawn(ENV, [
    ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
    process.execPath,
    ...typeScriptArgs(WEB_HOST_MAIN),
  ]);
  const line = await host.waitForLine(/listening on http:\S+/, START_TIMEOUT_MS);
  const port = /:(\d+)\s*$/.exec(line)?.[1];
  if (port === undefined) throw new Error(`web host: no port in "${line}"`);
  return { url: `http://${LINE_ADDRESSES[1]}:${port}`, process: host };
}
