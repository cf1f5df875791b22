import type { IceServerEntry } from '../../src-shared/signaling/http-api';

const TURN_SCHEME = /^(turns?):(.*)$/;

/**
 * The signaling server's ICE entries in node-datachannel's URL form. TURN credentials move into
 * the URL (`turn:user:pass@host:port?transport=udp`), percent-encoded because the self-hosted
 * username itself contains a colon.
 */
export function toNativeIceServers(entries: readonly IceServerEntry[]): string[] {
  return entries.flatMap((entry) => {
    const urls = Array.isArray(entry.urls) ? entry.urls : [entry.urls];
    return urls.flatMap((url) => nativeUrl(url, entry));
  });
}

function nativeUrl(url: string, entry: IceServerEntry): string[] {
  // libdatachannel knows no `stuns:` and would refuse the whole configuration.
  if (url.startsWith('stun:')) return [url];
  const turn = TURN_SCHEME.exec(url);
  if (turn === null) return [];
  const [, scheme, rest] = turn;
  if (entry.username === undefined || entry.credential === undefined) return [];
  const user = encodeURIComponent(entry.username);
  const pass = encodeURIComponent(entry.credential);
  return [`${scheme}:${user}:${pass}@${rest}`];
}

/** Whether any entry offers a relay: without one, a relay-only connection cannot form. */
export function hasRelay(entries: readonly IceServerEntry[]): boolean {
  return toNativeIceServers(entries).some((url) => url.startsWith('turn'));
}
