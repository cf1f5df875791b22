import type { PairedDevice, PairRooms, PresenceSeat } from '../../src-shared/nearby/nearby-ports';
import { openNativePairRooms, openNativePresence } from '../engine';

/** The signaling server a command talks to, as setUpTransfer resolved it. */
export interface CommandServer {
  serverUrl: string;
  serverCertificate?: string;
}

/** Waits in the pair rooms of `devices` on the command's server (docs/protocol.md, "Pair rooms"). */
export function openPairRooms(setup: CommandServer, devices: readonly PairedDevice[]): PairRooms {
  return openNativePairRooms(
    {
      serverUrl: setup.serverUrl,
      ...(setup.serverCertificate === undefined
        ? {}
        : { serverCertificate: setup.serverCertificate }),
    },
    devices,
  );
}

/**
 * This program's seat on the roster of the command's server, listed as a command line named
 * `name`; undefined when the server keeps none (docs/protocol.md, "Presence").
 */
export function openRoster(
  setup: CommandServer,
  name: string,
  cancelled: AbortSignal,
): Promise<PresenceSeat | undefined> {
  const open = openNativePresence(setup.serverUrl, {
    ...(setup.serverCertificate === undefined
      ? {}
      : { serverCertificate: setup.serverCertificate }),
  });
  return open({ name, kind: 'cli' }, cancelled);
}

/**
 * Resolves with what `find` finds, checked now and on every change `subscribe` reports, or
 * undefined once `ms` pass (or `cancelled` fires) with nothing found.
 */
export function lookFor<Found>(
  find: () => Found | undefined,
  subscribe: (changed: () => void) => () => void,
  ms: number,
  cancelled: AbortSignal,
): Promise<Found | undefined> {
  return new Promise((resolve) => {
    const finish = (found: Found | undefined): void => {
      clearTimeout(timer);
      unsubscribe();
      cancelled.removeEventListener('abort', onAbort);
      resolve(found);
    };
    const check = (): void => {
      const found = find();
      if (found !== undefined) finish(found);
    };
    const onAbort = (): void => finish(undefined);
    const timer = setTimeout(() => finish(undefined), ms);
    const unsubscribe = subscribe(check);
    cancelled.addEventListener('abort', onAbort, { once: true });
    check();
  });
}
