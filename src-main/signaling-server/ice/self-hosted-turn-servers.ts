import { createHmac, randomBytes } from 'node:crypto';
import type { IceServerEntry } from '../../../src-shared/signaling/http-api';
import {
  RELAY_CREDENTIAL_LIFETIME_MS,
  RELAY_USER_ID_BYTES,
} from '../../../src-shared/signaling/limits';
import type { Clock } from '../schedule';
import type { IceServerList } from './ice-server-list';

const STUN_TURN_PORT = 3478;
const TURNS_PORT = 5349;

/**
 * A self-hosted TURN server sharing TURN_SECRET with this one (coturn's `use-auth-secret`):
 * time-limited credentials in the "TURN REST API" form, username `<expiry_unix>:<id>` with a fresh
 * random id per request (the spec's fixed `relayuser` would make every peer one TURN user),
 * credential base64(HMAC-SHA1(secret, username)). coturn reads only the part before the colon.
 */
export class SelfHostedTurnServers implements IceServerList {
  constructor(
    private readonly secret: string,
    private readonly domain: string,
    private readonly now: Clock,
  ) {}

  async current(): Promise<IceServerEntry[]> {
    const expiry = Math.floor((this.now() + RELAY_CREDENTIAL_LIFETIME_MS) / 1000);
    const username = `${expiry}:${randomBytes(RELAY_USER_ID_BYTES).toString('base64url')}`;
    const credential = createHmac('sha1', this.secret).update(username).digest('base64');
    return [
      { urls: `stun:${this.domain}:${STUN_TURN_PORT}` },
      { urls: `turn:${this.domain}:${STUN_TURN_PORT}`, username, credential },
      { urls: `turns:${this.domain}:${TURNS_PORT}`, username, credential },
    ];
  }
}
