import type { IceServerEntry } from '../../../src-shared/signaling/http-api';

/** The answer of GET /api/turn-credentials: the ICE servers a peer should use right now. */
export interface IceServerList {
  current(): Promise<IceServerEntry[]>;
}
