import { afterEach, expect } from 'vitest';
import type { LogSink } from '../log-sink';
import type { SignalingServerOptions } from '../options';
import { startSignalingServer, type RunningServer } from '../start-signaling-server';

export interface TestServer extends RunningServer {
  /** Every line the server logged, errors prefixed with "error: ". */
  logs: string[];
}

export function capturingLog(): { log: LogSink; lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    log: { info: (line) => lines.push(line), error: (line) => lines.push(`error: ${line}`) },
  };
}

const running = new Set<RunningServer>();

afterEach(async () => {
  await Promise.all([...running].map((server) => server.close()));
  running.clear();
});

/** A real server on a free loopback port, closed after the test. */
export async function startTestServer(options: SignalingServerOptions = {}): Promise<TestServer> {
  const { log, lines } = capturingLog();
  const server = await startSignalingServer({ log, ...options, port: 0, host: '127.0.0.1' });
  running.add(server);
  return { ...server, logs: lines };
}

/** Closes a server started with startTestServer before the test ends (a restart, say). */
export async function stopTestServer(server: RunningServer): Promise<void> {
  for (const candidate of running) {
    if (candidate.url === server.url) running.delete(candidate);
  }
  await server.close();
}

export async function json(response: Response): Promise<unknown> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
