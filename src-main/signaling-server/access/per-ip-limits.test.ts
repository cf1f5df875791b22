import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_REPORTS_PER_IP, RATE_WINDOW_MS } from '../../../src-shared/signaling/limits';
import { manualWallClock } from '../test-support/manual-time';
import { json, postJson, startTestServer } from '../test-support/test-server';

describe('per-IP limits', () => {
  it('turn credentials: MAX_TURN_REQUESTS_PER_IP per 60 s, then 429 Too many requests', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 2 });
    for (let i = 0; i < 2; i += 1) {
      expect((await fetch(`${server.url}/api/turn-credentials`)).status).toBe(200);
    }
    const response = await fetch(`${server.url}/api/turn-credentials`);
    expect(response.status).toBe(429);
    expect(await json(response)).toEqual({ error: 'Too many requests' });
  });

  it('codes: POST /api/code and GET /api/code/:code share one counter', async () => {
    const server = await startTestServer({ maxCodeRequestsPerIp: 3 });
    const { code } = (await json(
      await postJson(`${server.url}/api/code`, { roomId: randomUUID() }),
    )) as { code: string };
    expect((await fetch(`${server.url}/api/code/${code}`)).status).toBe(200);
    expect((await postJson(`${server.url}/api/code`, { roomId: 'bad' })).status).toBe(400);
    const overPost = await postJson(`${server.url}/api/code`, { roomId: randomUUID() });
    expect(overPost.status).toBe(429);
    expect(await json(overPost)).toEqual({ error: 'Too many requests' });
    const overGet = await fetch(`${server.url}/api/code/${code}`);
    expect(overGet.status).toBe(429);
    expect(await json(overGet)).toEqual({ error: 'Too many requests' });
  });

  it('reports: 60 per IP per 60 s, then 429 Too many reports', async () => {
    const server = await startTestServer();
    for (let i = 0; i < MAX_REPORTS_PER_IP; i += 1) {
      expect((await postJson(`${server.url}/api/stats/report`, { bytes: 1 })).status).toBe(200);
    }
    const response = await postJson(`${server.url}/api/stats/report`, { bytes: 1 });
    expect(response.status).toBe(429);
    expect(await json(response)).toEqual({ error: 'Too many reports' });
    expect(await json(await fetch(`${server.url}/api/stats`))).toEqual({
      totalBytes: MAX_REPORTS_PER_IP,
    });
  });

  it('opens a new window after 60 s', async () => {
    const clock = manualWallClock();
    const server = await startTestServer({ maxTurnRequestsPerIp: 1 });
    expect((await fetch(`${server.url}/api/turn-credentials`)).status).toBe(200);
    clock.advance(RATE_WINDOW_MS - 1);
    expect((await fetch(`${server.url}/api/turn-credentials`)).status).toBe(429);
    clock.advance(1);
    expect((await fetch(`${server.url}/api/turn-credentials`)).status).toBe(200);
  });

  it('does not limit GET /, GET /health or GET /api/stats', async () => {
    const server = await startTestServer({
      maxTurnRequestsPerIp: 1,
      maxCodeRequestsPerIp: 1,
      maxConnectionsPerIp: 1,
    });
    for (let i = 0; i < 70; i += 1) {
      for (const path of ['/', '/health', '/api/stats']) {
        expect((await fetch(`${server.url}${path}`)).status).toBe(200);
      }
    }
  });

  it('keeps separate counters per limit', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1, maxCodeRequestsPerIp: 1 });
    expect((await fetch(`${server.url}/api/turn-credentials`)).status).toBe(200);
    expect((await postJson(`${server.url}/api/code`, { roomId: randomUUID() })).status).toBe(200);
    expect((await postJson(`${server.url}/api/stats/report`, { bytes: 1 })).status).toBe(200);
  });
});

describe('client IP behind proxies (TRUSTED_PROXY_COUNT)', () => {
  const turn = (url: string, forwardedFor: string) =>
    fetch(`${url}/api/turn-credentials`, { headers: { 'x-forwarded-for': forwardedFor } });

  it('counts per X-Forwarded-For client behind one trusted proxy', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1, trustedProxyCount: 1 });
    expect((await turn(server.url, '198.51.100.1')).status).toBe(200);
    expect((await turn(server.url, '198.51.100.2')).status).toBe(200);
    expect((await turn(server.url, '198.51.100.1')).status).toBe(429);
  });

  it('reads the entry written by the outermost trusted proxy, so a prefix forged by the client is ignored', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1, trustedProxyCount: 1 });
    expect((await turn(server.url, '10.9.9.9, 198.51.100.1')).status).toBe(200);
    expect((await turn(server.url, '10.8.8.8, 198.51.100.1')).status).toBe(429);
  });

  it('with two trusted proxies, takes the second entry from the right', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1, trustedProxyCount: 2 });
    expect((await turn(server.url, '198.51.100.1, 10.0.0.1')).status).toBe(200);
    expect((await turn(server.url, '198.51.100.1, 10.0.0.2')).status).toBe(429);
    expect((await turn(server.url, '198.51.100.2, 10.0.0.1')).status).toBe(200);
  });

  it('counts every address of one IPv6 /64 as one client for turn credentials too', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1, trustedProxyCount: 1 });
    expect((await turn(server.url, '2001:db8:5:6::1')).status).toBe(200);
    expect((await turn(server.url, '2001:db8:5:6:ffff::2')).status).toBe(429);
    expect((await turn(server.url, '2001:db8:5:7::1')).status).toBe(200);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1 });
    expect((await turn(server.url, '198.51.100.1')).status).toBe(200);
    expect((await turn(server.url, '198.51.100.2')).status).toBe(429);
  });

  it('a count higher than the real hops lets a client forge its way past (the documented risk)', async () => {
    const server = await startTestServer({ maxTurnRequestsPerIp: 1, trustedProxyCount: 2 });
    expect((await turn(server.url, '198.51.100.1, 203.0.113.9')).status).toBe(200);
    expect((await turn(server.url, '198.51.100.2, 203.0.113.9')).status).toBe(200);
  });
});
