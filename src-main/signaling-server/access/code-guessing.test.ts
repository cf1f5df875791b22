import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RATE_WINDOW_MS } from '../../../src-shared/signaling/limits';
import { describeNeeding } from '../../../test-support/vitest-tools';
import { manualWallClock } from '../test-support/manual-time';
import { startTestCluster } from '../test-support/test-cluster';
import { json, postJson, startTestServer } from '../test-support/test-server';

// Guessers spread over many addresses: each request claims its own client address through the
// one trusted proxy's X-Forwarded-For.
const lookup = (url: string, code: string, from: string) =>
  fetch(`${url}/api/code/${code}`, { headers: { 'x-forwarded-for': from } });

const register = async (url: string, from: string): Promise<string> => {
  const response = await postJson(
    `${url}/api/code`,
    { roomId: randomUUID() },
    { 'x-forwarded-for': from },
  );
  expect(response.status).toBe(200);
  return ((await json(response)) as { code: string }).code;
};

/** The `index`-th address of the /64 2001:db8:0:<subnet>::/64. */
const inSubnet = (subnet: number, index: number) =>
  `2001:db8:0:${subnet.toString(16)}:${(index >> 16).toString(16)}:${(index & 0xffff).toString(16)}::1`;

async function statuses(requests: Array<() => Promise<Response>>): Promise<number[]> {
  const answered: number[] = [];
  for (const request of requests) answered.push((await request()).status);
  return answered;
}

const count = (list: number[], status: number) => list.filter((each) => each === status).length;

describe('guessing codes from one IPv6 /64', () => {
  it('1,000 addresses of one /64 are held to one per-IP budget', async () => {
    const server = await startTestServer({ maxCodeRequestsPerIp: 5, trustedProxyCount: 1 });
    const answered = await statuses(
      Array.from(
        { length: 1_000 },
        (_, i) => () => lookup(server.url, 'acid-acorn-acre', inSubnet(1, i)),
      ),
    );
    expect(count(answered, 404)).toBe(5);
    expect(count(answered, 429)).toBe(995);
    // A neighbouring /64 is another client, with a budget of its own.
    expect((await lookup(server.url, 'acid-acorn-acre', inSubnet(2, 0))).status).toBe(404);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    const server = await startTestServer({ maxCodeRequestsPerIp: 1, trustedProxyCount: 1 });
    expect((await lookup(server.url, 'acid-acorn-acre', '198.51.100.7')).status).toBe(404);
    expect((await lookup(server.url, 'acid-acorn-acre', '::ffff:198.51.100.7')).status).toBe(429);
  });
});

describe('the global budget of failed code lookups, on one server', () => {
  it('once spent by clients anywhere, answers every lookup 429 with Retry-After until the window ends', async () => {
    const clock = manualWallClock();
    const server = await startTestServer({ maxFailedCodeLookups: 3, trustedProxyCount: 1 });
    const code = await register(server.url, '203.0.113.1');
    for (let i = 0; i < 3; i += 1) {
      expect((await lookup(server.url, 'acid-acorn-acre', inSubnet(10 + i, 0))).status).toBe(404);
    }
    // A hit is refused too, and from a client that never failed: otherwise guessing goes on.
    for (const guess of ['acid-acorn-acre', code]) {
      const refused = await lookup(server.url, guess, '203.0.113.2');
      expect(refused.status).toBe(429);
      expect(await json(refused)).toEqual({ error: 'Too many requests' });
      expect(Number(refused.headers.get('retry-after'))).toBe(RATE_WINDOW_MS / 1000);
    }
    clock.advance(RATE_WINDOW_MS / 2);
    expect((await lookup(server.url, code, '203.0.113.2')).headers.get('retry-after')).toBe(
      String(RATE_WINDOW_MS / 2000),
    );
    clock.advance(RATE_WINDOW_MS / 2);
    const reopened = await lookup(server.url, code, '203.0.113.2');
    expect(reopened.status).toBe(200);
  });

  it('counts only failures: lookups that find their code leave it whole', async () => {
    const server = await startTestServer({ maxFailedCodeLookups: 1, trustedProxyCount: 1 });
    const code = await register(server.url, '203.0.113.1');
    for (let i = 0; i < 5; i += 1) {
      expect((await lookup(server.url, code, '203.0.113.2')).status).toBe(200);
    }
    expect((await lookup(server.url, 'acid-acorn-acre', '203.0.113.3')).status).toBe(404);
    expect((await lookup(server.url, code, '203.0.113.2')).status).toBe(429);
  });
});

describeNeeding('redis', 'the global budget of failed code lookups, across a cluster', () => {
  it('is one budget for every server sharing the Redis', async () => {
    const { servers } = await startTestCluster(2, {
      maxFailedCodeLookups: 3,
      trustedProxyCount: 1,
    });
    const [a, b] = servers;
    expect((await lookup(a.url, 'acid-acorn-acre', inSubnet(20, 0))).status).toBe(404);
    expect((await lookup(b.url, 'acid-acorn-acre', inSubnet(21, 0))).status).toBe(404);
    expect((await lookup(a.url, 'acid-acorn-acre', inSubnet(22, 0))).status).toBe(404);
    for (const server of servers) {
      const refused = await lookup(server.url, 'acid-acorn-acre', inSubnet(23, 0));
      expect(refused.status).toBe(429);
      expect(await json(refused)).toEqual({ error: 'Too many requests' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(RATE_WINDOW_MS / 1000);
    }
  });
});
