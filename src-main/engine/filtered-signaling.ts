import type { SignalingPort } from '../../src-shared/session/ports';
import type { PeerOptions } from './engine-options';

/** The seat with the test seam's filter on signals each way; the seat itself when there is none. */
export function filteredSignaling(
  seat: SignalingPort,
  filter: PeerOptions['signalFilter'],
): SignalingPort {
  if (filter === undefined) return seat;
  return {
    get role() {
      return seat.role;
    },
    signal: (payload) => {
      if (filter(payload, 'out')) seat.signal(payload);
    },
    listen: (listener) =>
      seat.listen((event) => {
        if (event.type !== 'signal' || filter(event.payload, 'in')) listener(event);
      }),
    close: () => seat.close(),
  };
}
