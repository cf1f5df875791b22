import * as v from 'valibot';
import { IceServerEntrySchema } from '../../../src-shared/http/ice-server-list';
import type { IceServerEntry } from '../../../src-shared/signaling/http-api';

interface IceUrl {
  url: string;
  scheme: string;
  port: number | undefined;
  transport: string | undefined;
}

// RFC 7064/7065 URIs: scheme ":" host [":" port] ["?transport=" udp|tcp].
const ICE_URL = /^(stuns?|turns?):(\[[^\]]+\]|[^:?]+)(?::(\d+))?(?:\?transport=(udp|tcp))?$/i;

function parseIceUrl(url: string): IceUrl | undefined {
  const match = ICE_URL.exec(url);
  if (match === null) return undefined;
  return {
    url,
    scheme: match[1].toLowerCase(),
    port: match[3] === undefined ? undefined : Number(match[3]),
    transport: match[4]?.toLowerCase(),
  };
}

/** A provider's `iceServers`: an array of entries, or (its older API) one entry object. */
const PROVIDER_LIST = v.union([
  v.array(v.unknown()),
  v.pipe(
    v.looseObject({}),
    v.transform((entry): unknown[] => [entry]),
  ),
]);

/** The answer of the provider's generate-ice-servers call; trimRelayProviderList reads the list. */
export const RelayProviderAnswerSchema = v.object({ iceServers: v.unknown() });

const RELAY_ENTRY = v.object({
  ...IceServerEntrySchema.entries,
  username: v.string(),
  credential: v.string(),
});

const urlsOf = (entry: IceServerEntry): string[] =>
  Array.isArray(entry.urls) ? entry.urls : [entry.urls];

const isUdpTurn = (url: IceUrl) =>
  url.scheme === 'turn' && (url.transport === undefined || url.transport === 'udp');

// TLS on 443 passes the strictest firewalls, then any TLS, then plain TCP (443 first).
function tcpRank(url: IceUrl): number | undefined {
  if (url.scheme === 'turns') return url.port === 443 ? 0 : 1;
  if (url.scheme === 'turn' && url.transport === 'tcp') return url.port === 443 ? 2 : 3;
  return undefined;
}

/**
 * Trims a relay provider's `iceServers` to what a peer needs: one STUN URL, then one entry with
 * one UDP TURN URL and one TCP-based TURN URL and their credentials. The provider's older API
 * answers a single entry object instead of an array; both read the same. Throws when the list
 * holds no TURN URL with credentials, so the caller treats it as a failed call.
 */
export function trimRelayProviderList(iceServers: unknown): IceServerEntry[] {
  const list = v.safeParse(PROVIDER_LIST, iceServers);
  if (!list.success) throw new Error('The relay provider sent no iceServers');
  // An entry that is not an ICE server costs only itself.
  const entries = list.output.flatMap((item) => {
    const entry = v.safeParse(IceServerEntrySchema, item);
    return entry.success ? [entry.output] : [];
  });
  const stun = entries
    .flatMap(urlsOf)
    .map(parseIceUrl)
    .find((url) => url?.scheme === 'stun');
  const relay = entries
    .flatMap((entry) => {
      const withCredentials = v.safeParse(RELAY_ENTRY, entry);
      return withCredentials.success ? [withCredentials.output] : [];
    })
    .find((entry) => urlsOf(entry).some((url) => parseIceUrl(url)?.scheme.startsWith('turn')));
  if (relay === undefined) throw new Error('The relay provider sent no TURN URL with credentials');
  const turnUrls = urlsOf(relay)
    .map(parseIceUrl)
    .filter((url): url is IceUrl => url !== undefined);
  const udp = turnUrls.find(isUdpTurn);
  const tcp = turnUrls
    .filter((url) => tcpRank(url) !== undefined)
    .sort((a, b) => (tcpRank(a) ?? 0) - (tcpRank(b) ?? 0))[0];
  const trimmed: IceServerEntry[] = stun === undefined ? [] : [{ urls: [stun.url] }];
  trimmed.push({
    urls: [udp, tcp].filter((url): url is IceUrl => url !== undefined).map((url) => url.url),
    username: relay.username,
    credential: relay.credential,
  });
  return trimmed;
}
