/** What came back from a JSON endpoint, or why nothing usable did. */
export type HttpOutcome =
  | { kind: 'ok'; status: number; body: unknown }
  | { kind: 'status'; status: number; error: string | undefined }
  | { kind: 'unreachable'; detail: string };

/**
 * One request to the signaling server with a deadline. Never throws: network failures, timeouts
 * and non-2xx answers are values, because each caller words them differently.
 */
export async function requestJson(
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown; timeoutMs: number; signal?: AbortSignal },
): Promise<HttpOutcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: init.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.any([
        AbortSignal.timeout(init.timeoutMs),
        ...(init.signal === undefined ? [] : [init.signal]),
      ]),
    });
  } catch (error) {
    return { kind: 'unreachable', detail: unreachableDetail(error, init.timeoutMs) };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error =
      typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
        ? body.error
        : undefined;
    return { kind: 'status', status: response.status, error };
  }
  return { kind: 'ok', status: response.status, body };
}

function unreachableDetail(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
