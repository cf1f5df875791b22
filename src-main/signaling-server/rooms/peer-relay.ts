import type { PeerAddress } from './peer-address';
import type { PeerEvent } from './peer-event';

/** Reaches a peer connected to another server of the cluster, through Redis. */
export interface PeerRelay {
  deliver(address: PeerAddress, event: PeerEvent): Promise<void>;
}
