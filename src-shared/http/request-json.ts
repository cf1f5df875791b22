import type { Clock } from '../session/ports';

/** The part of `fetch` the HTTP requests use: the platform's own in Node 20 and in browsers. */
export type HttpFetch = (
  url: string,
  init: {
    method: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    signal: AbortSignal;
  },
) => Promise<{
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}>;

/** What an HTTP request needs from its runtime. */
export interface HttpPort {
  fetch: HttpFetch;
  clock: Clock;
}

/** How an exchange with the server ended: an answer, or no answer at all, and why. */
export type HttpAnswer =
  | {
      kind: 'answered';
      status: number;
      body: unknown;
      /** The headers the request asked to read (`readHeaders`), those the answer carried. */
      headers?: Readonly<Record<string, string>>;
    }
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
  /** Response headers to read, by name. */
  readHeaders?: readonly string[];
}

/**
 * One JSON request that never throws: a body that is not JSON reads as null, and the deadline
 * and the caller's cancel are told apart, so each is worded on its own.
 */
export async function requestJson(
  port: HttpPort,
  url: string,
  request: JsonRequest,
): Promise<HttpAnswer> {
  if (request.signal?.aborted) return { kind: 'cancelled' };
  const controller = new AbortController();
  let timedOut = false;
  const timer = port.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const cancel = (): void => controller.abort();
  request.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const response = await port.fetch(url, {
      method: request.method ?? 'GET',
      ...(request.body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) }),
      signal: controller.signal,
    });
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    const headers: Record<string, string> = {};
    for (const name of request.readHeaders ?? []) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return {
      kind: 'answered',
      status: response.status,
      body,
      ...(request.readHeaders === undefined ? {} : { headers }),
    };
  } catch (error) {
    if (timedOut) return { kind: 'timed-out' };
    if (controller.signal.aborted) return { kind: 'cancelled' };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return { kind: 'unreachable', detail: cause instanceof Error ? cause.message : String(cause) };
  } finally {
    timer.cancel();
    request.signal?.removeEventListener('abort', cancel);
  }
}
