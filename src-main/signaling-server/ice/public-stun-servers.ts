import type { IceServerEntry } from '../../../src-shared/signaling/http-api';
import { PUBLIC_STUN_URLS } from '../../../src-shared/signaling/public-stun-urls';
import type { IceServerList } from './ice-server-list';

/** The list when no relay is configured. */

export class PublicStunServers implements IceServerList {
  async current(): Promise<IceServerEntry[]> {
    return PUBLIC_STUN_URLS.map((urls) => ({ urls }));
  }
}
