import type { RememberedDevice } from '../devices/remembered-devices';
import type { PairedDevice } from './nearby-ports';

/**
 * The remembered devices that have a pair room (a pair secret), the most recently remembered
 * first: PairRooms waits in the first PAIR_ROOMS_MAX of them (docs/protocol.md, "Pair rooms").
 */
export function pairedDevices(devices: readonly RememberedDevice[]): PairedDevice[] {
  return [...devices]
    .sort((a, b) => b.rememberedAt - a.rememberedAt)
    .flatMap(({ fingerprint, name, pairSecret }) =>
      pairSecret === undefined ? [] : [{ fingerprint, name, pairSecret }],
    );
}
