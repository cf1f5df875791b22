import type { IceServerEntry } from '../../../src-shared/signaling/http-api';
import type { IceServerList } from './ice-server-list';

/** Google's public STUN pair, the conventional choice when no relay is configured. */
export const PUBLIC_STUN_URLS: readonly string[] = [
  'stun:stun.l.google.com:19302',
  'stun:stun1.l.google.com:19302',
];

export class PublicStunServers implements IceServerList {
  async current(): Promise<IceServerEntry[]> {
    return PUBLIC_STUN_URLS.map((urls) => ({ urls }));
  }
}
