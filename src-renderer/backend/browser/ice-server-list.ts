import { RELAY_CREDENTIALS_TIMEOUT_MS } from '../../../src-shared/protocol/limits';
import { TURN_CREDENTIALS_PATH } from '../../../src-shared/signaling/endpoints';
import { PUBLIC_STUN_URLS } from '../../../src-shared/signaling/public-stun-urls';
import { requestJson, type HttpAnswer } from './http-json';

/** What a browser connects through when the server gives no list: public STUN, never a relay. */
export const STUN_ONLY: RTCIceServer[] = [{ urls: [...PUBLIC_STUN_URLS] }];

export interface IceServerChoice {
  servers: RTCIceServer[];
  /** Why the server's list was not used, for the console; absent when it was. */
  warning?: string;
}

function isUrl(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** One entry of the server's array; `urls` may be a string or an array of strings. */
function readEntry(value: unknown): RTCIceServer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { urls, username, credential } = value as Record<string, unknown>;
  const list = Array.isArray(urls) ? urls : [urls];
  if (list.length === 0 || !list.every(isUrl)) return undefined;
  const entry: RTCIceServer = { urls: Array.isArray(urls) ? list : (urls as string) };
  if (username !== undefined) {
    if (typeof username !== 'string') return undefined;
    entry.username = username;
  }
  if (credential !== undefined) {
    if (typeof credential !== 'string') return undefined;
    entry.credential = credential;
  }
  return entry;
}

/** The list GET /api/turn-credentials answered, or STUN only when it could not be used. */
export function iceServersFrom(answer: HttpAnswer): IceServerChoice {
  switch (answer.kind) {
    case 'timed-out':
      return { servers: STUN_ONLY, warning: 'relay credentials timed out; using STUN only' };
    case 'unreachable':
      return { servers: STUN_ONLY, warning: `relay credentials unreachable (${answer.detail})` };
    case 'cancelled':
      return { servers: STUN_ONLY };
    case 'answered':
      break;
  }
  // Over the rate limit the spec has the client go on with STUN, which needs no credentials.
  if (answer.status === 429)
    return { servers: STUN_ONLY, warning: 'relay credentials refused (429)' };
  if (answer.status !== 200 || !Array.isArray(answer.body)) {
    return { servers: STUN_ONLY, warning: `relay credentials unusable (HTTP ${answer.status})` };
  }
  // An empty list is an answer, not a fault: a LAN room wants host candidates only.
  const servers = answer.body.map(readEntry);
  if (servers.some((entry) => entry === undefined)) {
    return { servers: STUN_ONLY, warning: 'relay credentials malformed; using STUN only' };
  }
  return { servers: servers as RTCIceServer[] };
}

/** Fetched once per transfer, just before connecting. */
export async function fetchIceServers(
  signalingAddress: string,
  signal: AbortSignal,
): Promise<IceServerChoice> {
  const answer = await requestJson(`${signalingAddress}${TURN_CREDENTIALS_PATH}`, {
    timeoutMs: RELAY_CREDENTIALS_TIMEOUT_MS,
    signal,
  });
  return iceServersFrom(answer);
}
