import { createPairRooms } from '../../src-shared/nearby/pair-rooms';
import type { PairedDevice, PairRooms } from '../../src-shared/nearby/nearby-ports';
import { DEFAULT_TIMEOUTS, type PeerOptions } from './engine-options';
import { nodeClock } from './node-clock';
import { joinSignalingRoom } from './signaling-seat';

/**
 * A native program's pair rooms (docs/protocol.md, "Pair rooms"): the shared watcher of
 * src-shared/nearby/pair-rooms.ts on the flows' own room join over /ws.
 */
export function openNativePairRooms(
  options: Pick<PeerOptions, 'serverUrl' | 'serverCertificate'>,
  devices: readonly PairedDevice[],
): PairRooms {
  return createPairRooms({
    joinRoom: (roomId, cancelled) =>
      joinSignalingRoom(options, roomId, DEFAULT_TIMEOUTS.roleWait, cancelled),
    clock: nodeClock,
    devices,
  });
}
