import * as v from 'valibot';
import { WEB_CLIENT_CONFIG_PATH } from '../../../src-shared/signaling/endpoints';
import { CONFIG_REQUEST_TIMEOUT_MS } from '../../../src-shared/signaling/limits';
import { requestJson, type HttpAnswer } from '../../../src-shared/http/request-json';
import { browserHttp } from './browser-http';

/** The part of the web host's config the client uses; an empty `socketUrl` means none. */
const CONFIG_WITH_SOCKET_URL = v.object({ socketUrl: v.pipe(v.string(), v.trim(), v.nonEmpty()) });

/**
 * Where the signaling server is, from the answer to GET /api/config: its `socketUrl`, or the
 * page's own origin when that is empty or when there is no usable config at all (a deployment
 * that routes every /api/ path to the signaling server answers 404).
 */
export function signalingAddressFrom(answer: HttpAnswer, pageOrigin: string): string {
  if (answer.kind !== 'answered' || answer.status !== 200) return pageOrigin;
  const config = v.safeParse(CONFIG_WITH_SOCKET_URL, answer.body);
  if (!config.success) return pageOrigin;
  try {
    const url = new URL(config.output.socketUrl, pageOrigin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return pageOrigin;
    return url.href.replace(/\/+$/, '');
  } catch {
    return pageOrigin;
  }
}

/** Asks the web host where its signaling server is. */
export async function findSignalingAddress(pageOrigin: string): Promise<string> {
  const answer = await requestJson(browserHttp, `${pageOrigin}${WEB_CLIENT_CONFIG_PATH}`, {
    timeoutMs: CONFIG_REQUEST_TIMEOUT_MS,
  });
  return signalingAddressFrom(answer, pageOrigin);
}
