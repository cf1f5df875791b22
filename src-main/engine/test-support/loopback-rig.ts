import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../../signaling-server';
import type { SignalingServerOptions } from '../../signaling-server/options';
import { scratchFolder } from './files-on-disk';
import { startLoopbackServer } from './loopback-server';

export interface LoopbackRig {
  /** A signaling server on loopback, up for the whole file. */
  readonly server: RunningServer;
  /** A fresh folder for the file's sources and destinations, removed afterwards. */
  readonly scratch: Awaited<ReturnType<typeof scratchFolder>>;
}

/**
 * What most engine and CLI test files start from: one loopback signaling server and one scratch
 * folder for the whole file. Call it at the top level of a test file; read the fields in tests.
 * `server`: options for a file whose tests open more sockets than one address may by default.
 */
export function useLoopbackRig(server: SignalingServerOptions = {}): LoopbackRig {
  let running: RunningServer | undefined;
  let scratch: LoopbackRig['scratch'] | undefined;
  beforeAll(async () => {
    running = await startLoopbackServer(server);
    scratch = await scratchFolder();
  });
  afterAll(async () => {
    await running?.close();
    await scratch?.remove();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useLoopbackRig: read before beforeAll ran');
    return value;
  };
  return {
    get server() {
      return ready(running);
    },
    get scratch() {
      return ready(scratch);
    },
  };
}
