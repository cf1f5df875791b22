import { afterEach, expect } from 'vitest';
import type { LogSink } from '../log-sink';
import type { SignalingServerOptions } from '../options';
import { startSignalingServer, type RunningServer } from '../start-signaling-server';

export interface TestServer extends RunningServer {
  /** Every line the server logged, errors prefixed with "error: ". */
  logs: string[];
  /** The first line matching `pattern` after the last line matched so far, once it is logged. */
  logged(pattern: RegExp): Promise<string>;
}

export interface CapturedLog {
  log: LogSink;
  lines: string[];
  logged(pattern: RegExp): Promise<string>;
}

export function capturingLog(): CapturedLog {
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let matchedUpTo = 0;
  const push = (line: string) => {
    lines.push(line);
    for (const waiter of [...waiters]) waiter();
  };
  const logged = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const look = () => {
        const index = lines.findIndex((line, at) => at >= matchedUpTo && pattern.test(line));
        if (index === -1) return;
        waiters.delete(look);
        matchedUpTo = index + 1;
        resolve(lines[index]);
      };
      waiters.add(look);
      look();
    });
  return {
    lines,
    logged,
    log: { info: (line) => push(line), error: (line) => push(`error: ${line}`) },
  };
}

const running = new Set<RunningServer>();

afterEach(async () => {
  await Promise.all([...running].map((server) => stopTestServer(server)));
});

/** A real server on a free loopback port, closed after the test. */
export async function startTestServer(options: SignalingServerOptions = {}): Promise<TestServer> {
  const { log, lines, logged } = capturingLog();
  const server = await startSignalingServer({ log, ...options, port: 0, host: '127.0.0.1' });
  running.add(server);
  return { ...server, logs: lines, logged };
}

/** Closes a server started with startTestServer before the test ends (a restart, say), once. */
export async function stopTestServer(server: RunningServer): Promise<void> {
  const started = [...running].find((candidate) => candidate.url === server.url);
  if (started === undefined) return;
  running.delete(started);
  await started.close();
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
