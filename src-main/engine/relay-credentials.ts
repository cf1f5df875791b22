import type { IceServerEntry } from '../../src-shared/signaling/http-api';
import { TURN_CREDENTIALS_PATH } from '../../src-shared/signaling/endpoints';
import { PUBLIC_STUN_URLS } from '../../src-shared/signaling/public-stun-urls';
import { requestJson } from './http-json';

const TOO_MANY_REQUESTS = 429;

/** The list a server without relay hands out, for when the server gives no usable list. */
const FALLBACK_STUN: IceServerEntry[] = PUBLIC_STUN_URLS.map((urls) => ({ urls }));

export interface IceServerFetch {
  servers: IceServerEntry[];
  /** Why the list fell back to STUN only, for the person to read; undefined when it did not. */
  warning: string | undefined;
}

/**
 * GET /api/turn-credentials, once before connecting. On 429, a timeout or any failure the
 * transfer goes on with STUN only and a warning, since a direct route may well work.
 */
export async function fetchIceServers(
  serverUrl: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<IceServerFetch> {
  const outcome = await requestJson(new URL(TURN_CREDENTIALS_PATH, serverUrl).toString(), {
    method: 'GET',
    timeoutMs,
    signal,
  });
  if (outcome.kind === 'ok') {
    const servers = readEntries(outcome.body);
    if (servers !== undefined) return { servers, warning: undefined };
  }
  const why =
    outcome.kind === 'unreachable'
      ? outcome.detail
      : outcome.kind === 'status' && outcome.status === TOO_MANY_REQUESTS
        ? 'too many requests'
        : outcome.kind === 'status'
          ? `the server answered ${outcome.status}`
          : 'the server sent an unusable list';
  return {
    servers: FALLBACK_STUN,
    warning: `could not fetch relay credentials (${why}); continuing with STUN only, so a connection through a relay is not possible`,
  };
}

function readEntries(body: unknown): IceServerEntry[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const entries: IceServerEntry[] = [];
  for (const item of body) {
    if (typeof item !== 'object' || item === null) continue;
    const { urls, username, credential } = item as Record<string, unknown>;
    const list = typeof urls === 'string' ? urls : Array.isArray(urls) ? urls : undefined;
    if (list === undefined) continue;
    if (Array.isArray(list) && !list.every((url): url is string => typeof url === 'string')) {
      continue;
    }
    const entry: IceServerEntry = { urls: list as string | string[] };
    if (typeof username === 'string') entry.username = username;
    if (typeof credential === 'string') entry.credential = credential;
    entries.push(entry);
  }
  return entries;
}
