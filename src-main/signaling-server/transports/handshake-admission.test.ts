import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RATE_WINDOW_MS } from '../../../src-shared/signaling/limits';
import { manualWallClock } from '../test-support/manual-time';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { startTestServer } from '../test-support/test-server';

/** The HTTP status of a refused WebSocket handshake. */
function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    socket.on('error', () => undefined);
    socket.once('unexpected-response', (request, response) => {
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    socket.once('open', () => reject(new Error('The handshake was accepted')));
  });
}

describe('connection rate: MAX_CONNECTIONS_PER_IP per 60 s, both transports counted together', () => {
  it('refuses the connection over the limit on either transport, with a reason', async () => {
    const server = await startTestServer({ maxConnectionsPerIp: 3 });
    await SocketIoPeer.connect(server.url);
    await WsPeer.connect(server.url);
    await SocketIoPeer.connect(server.url);

    const ws = await WsPeer.connect(server.url);
    expect(await ws.next()).toEqual({ type: 'error', message: 'Too many connections' });
    expect(await ws.closed).toEqual({ code: 1008, reason: 'Too many connections' });
    await expect(SocketIoPeer.connect(server.url)).rejects.toThrow('Too many connections');
  });

  it('counts every address of one IPv6 /64 as one client', async () => {
    const server = await startTestServer({ maxConnectionsPerIp: 1, trustedProxyCount: 1 });
    await WsPeer.connect(server.url, { 'x-forwarded-for': '2001:db8:9:9::1' });
    const sameSite = await WsPeer.connect(server.url, { 'x-forwarded-for': '2001:db8:9:9::2' });
    expect(await sameSite.next()).toEqual({ type: 'error', message: 'Too many connections' });
    const otherSite = await WsPeer.connect(server.url, { 'x-forwarded-for': '2001:db8:9:a::1' });
    expect(await otherSite.join(randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });
  });

  it('keeps counting until the window ends, then admits the client again', async () => {
    const clock = manualWallClock();
    const server = await startTestServer({ maxConnectionsPerIp: 1 });
    await WsPeer.connect(server.url);
    await expect(SocketIoPeer.connect(server.url)).rejects.toThrow('Too many connections');
    clock.advance(RATE_WINDOW_MS - 1);
    const late = await WsPeer.connect(server.url);
    expect(await late.next()).toEqual({ type: 'error', message: 'Too many connections' });
    clock.advance(1);
    await SocketIoPeer.connect(server.url);
  });

  it('counts connections per client address from X-Forwarded-For behind a trusted proxy', async () => {
    const server = await startTestServer({ maxConnectionsPerIp: 1, trustedProxyCount: 1 });
    await WsPeer.connect(server.url, { 'x-forwarded-for': '203.0.113.1' });
    await SocketIoPeer.connect(server.url, { extraHeaders: { 'x-forwarded-for': '203.0.113.2' } });
    const third = await WsPeer.connect(server.url, { 'x-forwarded-for': '203.0.113.2' });
    expect(await third.next()).toEqual({ type: 'error', message: 'Too many connections' });
  });

  it('ignores X-Forwarded-For without a trusted proxy, so a client cannot forge its way past', async () => {
    const server = await startTestServer({ maxConnectionsPerIp: 1 });
    await WsPeer.connect(server.url, { 'x-forwarded-for': '203.0.113.1' });
    const forged = await WsPeer.connect(server.url, { 'x-forwarded-for': '203.0.113.2' });
    expect(await forged.next()).toEqual({ type: 'error', message: 'Too many connections' });
  });
});

describe('the CORS allow-list applies to both socket handshakes', () => {
  it('refuses a WebSocket handshake from an origin outside the list with 403', async () => {
    const server = await startTestServer();
    expect(await refusedUpgrade(`${server.url}/ws`, { origin: 'https://evil.example' })).toBe(403);
  });

  it('refuses an event-socket handshake from an origin outside the list', async () => {
    const server = await startTestServer();
    await expect(
      SocketIoPeer.connect(server.url, {
        transports: ['polling'],
        extraHeaders: { origin: 'https://evil.example' },
      }),
    ).rejects.toThrow();
    const response = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });

  it('admits handshakes from a built-in origin, from CLIENT_URL and without an origin', async () => {
    const server = await startTestServer({ clientUrl: 'https://files.example.org' });
    await WsPeer.connect(server.url, { origin: 'https://ferry.app' });
    await WsPeer.connect(server.url, { origin: 'https://files.example.org' });
    await WsPeer.connect(server.url);
    const peer = await SocketIoPeer.connect(server.url, {
      transports: ['polling'],
      extraHeaders: { origin: 'http://localhost:3000' },
    });
    await peer.ping();
  });

  it('answers an upgrade on an unknown path with 404', async () => {
    const server = await startTestServer();
    expect(await refusedUpgrade(`${server.url}/elsewhere`)).toBe(404);
  });
});
