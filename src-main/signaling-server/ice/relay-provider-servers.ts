import * as v from 'valibot';
import type { IceServerEntry } from '../../../src-shared/signaling/http-api';
import {
  RELAY_CREDENTIAL_LIFETIME_MS,
  RELAY_PROVIDER_CACHE_MS,
  RELAY_PROVIDER_STALE_REUSE_MS,
} from '../../../src-shared/signaling/limits';
import type { LogSink } from '../log-sink';
import type { Clock } from '../schedule';
import type { IceServerList } from './ice-server-list';
import { RelayProviderAnswerSchema, trimRelayProviderList } from './trim-relay-provider-list';
import { errorMessage } from '../../../src-shared/format/error-message';

export interface RelayProviderAccount {
  /** The provider's API base, e.g. https://rtc.live.cloudflare.com. */
  baseUrl: string;
  keyId: string;
  apiToken: string;
  timeoutMs: number;
}

interface Minted {
  entries: IceServerEntry[];
  mintedAt: number;
}

/**
 * TURN credentials minted by a relay provider (Cloudflare's generate-ice-servers API), trimmed,
 * cached for RELAY_PROVIDER_CACHE_MS. While the provider fails, the last good copy is served
 * until it is RELAY_PROVIDER_STALE_REUSE_MS old; after that the fallback list answers.
 */
export class RelayProviderServers implements IceServerList {
  private lastGood: Minted | undefined;
  private minting: Promise<IceServerEntry[]> | undefined;

  constructor(
    private readonly account: RelayProviderAccount,
    private readonly fallback: IceServerList,
    private readonly now: Clock,
    private readonly log: LogSink,
  ) {}

  current(): Promise<IceServerEntry[]> {
    if (
      this.lastGood !== undefined &&
      this.now() - this.lastGood.mintedAt < RELAY_PROVIDER_CACHE_MS
    ) {
      return Promise.resolve(this.lastGood.entries);
    }
    // Requests arriving while a call is out share it rather than each minting their own.
    this.minting ??= this.refresh().finally(() => {
      this.minting = undefined;
    });
    return this.minting;
  }

  private async refresh(): Promise<IceServerEntry[]> {
    const startedAt = this.now();
    try {
      const entries = await this.mint();
      this.lastGood = { entries, mintedAt: startedAt };
      return entries;
    } catch (error) {
      this.log.error(`Relay provider failed: ${errorMessage(error)}`);
      if (
        this.lastGood !== undefined &&
        this.now() - this.lastGood.mintedAt < RELAY_PROVIDER_STALE_REUSE_MS
      ) {
        return this.lastGood.entries;
      }
      return this.fallback.current();
    }
  }

  private async mint(): Promise<IceServerEntry[]> {
    const { baseUrl, keyId, apiToken, timeoutMs } = this.account;
    const url = `${baseUrl.replace(/\/+$/, '')}/v1/turn/keys/${encodeURIComponent(keyId)}/credentials/generate-ice-servers`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ttl: RELAY_CREDENTIAL_LIFETIME_MS / 1000 }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
    const answer = v.safeParse(RelayProviderAnswerSchema, await response.json());
    if (!answer.success) throw new Error('The relay provider sent no iceServers');
    return trimRelayProviderList(answer.output.iceServers);
  }
}
