// Signaling spec, "POST /api/code" and "GET /api/code/:code", over fetch (Node and browsers).
import { failure, violation } from './failure';
import { CODE_REQUEST_MS } from './limits';

/** Signaling spec, "Short code": three lowercase words joined by hyphens, four after collisions. */
const CODE_SHAPE = /^[a-z]+(?:-[a-z]+){2,3}$/;
/** Signaling spec, "Room": a UUID in canonical 8-4-4-4-12 form, any version, any case. */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function registerCode(serverUrl: string, roomId: string): Promise<string> {
  const body = await requestJson(serverUrl, '/api/code', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ roomId }),
  });
  if (typeof body.code !== 'string' || !CODE_SHAPE.test(body.code)) {
    throw violation(`POST /api/code answered a code of the wrong shape: ${JSON.stringify(body)}`);
  }
  return body.code;
}

/** The spec has a direct caller send the code lowercase; this peer passes it on untouched. */
export async function resolveCode(serverUrl: string, code: string): Promise<string> {
  const body = await requestJson(serverUrl, `/api/code/${encodeURIComponent(code)}`, {
    method: 'GET',
  });
  if (typeof body.roomId !== 'string' || !UUID_SHAPE.test(body.roomId)) {
    throw violation(`GET /api/code answered no room id: ${JSON.stringify(body)}`);
  }
  return body.roomId;
}

async function requestJson(
  serverUrl: string,
  path: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<Record<string, unknown>> {
  const where = `${init.method} ${path}`;
  const send = (): Promise<Response> =>
    fetch(new URL(path, serverUrl), { ...init, signal: AbortSignal.timeout(CODE_REQUEST_MS) });
  let response: Response;
  try {
    // Once more on a failure before any answer: fetch reuses a pooled keep-alive connection,
    // which the server may close (its idle timeout) just as the request goes out on it.
    response = await send().catch(send);
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    throw failure(
      `${where} failed: ${error instanceof Error ? error.message : String(error)}${cause}`,
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Signaling spec, "Errors": every HTTP answer is JSON, failures included.
    throw violation(`${where} answered ${response.status} with a body that is not JSON: ${text}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw violation(`${where} answered ${response.status} with no JSON object: ${text}`);
  }
  if (response.status !== 200) throw failure(`${where} answered ${response.status}: ${text}`);
  return body as Record<string, unknown>;
}
