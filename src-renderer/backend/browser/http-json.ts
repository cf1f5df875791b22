/** How an HTTP exchange with the server ended: an answer, or no answer at all. */
export type HttpAnswer =
  | { kind: 'answered'; status: number; body: unknown }
  | { kind: 'unreachable'; detail: string }
  | { kind: 'timed-out' }
  | { kind: 'cancelled' };

export interface JsonRequest {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  timeoutMs: number;
  /** Aborts the request when the person cancels. */
  signal?: AbortSignal;
}

/**
 * One JSON request that never throws: a body that is not JSON reads as null, and the deadline
 * and the caller's cancel are told apart so each can be worded on its own.
 */
export async function requestJson(url: string, request: JsonRequest): Promise<HttpAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const cancel = (): void => controller.abort();
  request.signal?.addEventListener('abort', cancel, { once: true });
  try {
    if (request.signal?.aborted) return { kind: 'cancelled' };
    const response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: request.body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: controller.signal,
    });
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return { kind: 'answered', status: response.status, body };
  } catch (error) {
    if (timedOut) return { kind: 'timed-out' };
    if (controller.signal.aborted) return { kind: 'cancelled' };
    return { kind: 'unreachable', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', cancel);
  }
}
