import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignalingRequests, STUN_ONLY } from '../../src-shared/http/signaling-requests';
import type { RunningServer } from '../signaling-server';
import { nodeClock } from './node-clock';
import { startLoopbackServer } from './test-support/loopback-server';

// The one HTTP client of every surface (src-shared/http), against the real signaling server on
// loopback, and against a small loopback server that answers what a broken or older server
// might: the answers no real Ferry server gives.
const http = { fetch: (url: string, init: RequestInit) => fetch(url, init), clock: nodeClock };
const QUICK = { codeRequest: 300, relayCredentials: 300, report: 300, release: 300 };

let ferry: RunningServer;
let odd: Server;
let oddUrl = '';
const answers = new Map<string, { status: number; body?: unknown; silent?: boolean }>();

beforeAll(async () => {
  ferry = await startLoopbackServer();
  odd = createServer((request, response) => {
    const answer = answers.get(`${request.method} ${request.url}`);
    if (answer === undefined || answer.silent) return; // never answers
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body ?? null));
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await ferry.close();
  odd.closeAllConnections();
  await new Promise((resolve) => odd.close(resolve));
});

describe('code requests', () => {
  it('register a code and resolve it to the same room', async () => {
    const requests = new SignalingRequests(ferry.url, http);
    const roomId = crypto.randomUUID();
    const code = await requests.registerCode(roomId);
    expect(await requests.resolveCode(code)).toBe(roomId);
  });

  it('an unknown code is "not found", not an unreachable server', async () => {
    const requests = new SignalingRequests(ferry.url, http);
    await expect(requests.resolveCode('no-such-code')).rejects.toMatchObject({
      code: 'ERR_CODE_NOT_FOUND',
    });
  });

  it.each([
    ['used', 'ERR_CODE_USED'],
    ['cancelled', 'ERR_CODE_CANCELLED'],
  ] as const)(
    'a code its sender released as %s fails named, before any join (docs/protocol.md, "Dead codes")',
    async (outcome, code) => {
      const requests = new SignalingRequests(ferry.url, http);
      const roomId = crypto.randomUUID();
      const issued = await requests.registerCode(roomId);
      await requests.releaseCode(issued, roomId, outcome);
      await expect(requests.resolveCode(issued)).rejects.toMatchObject({ code });
    },
  );

  it('a release by another room changes nothing', async () => {
    const requests = new SignalingRequests(ferry.url, http);
    const roomId = crypto.randomUUID();
    const issued = await requests.registerCode(roomId);
    await requests.releaseCode(issued, crypto.randomUUID(), 'cancelled');
    expect(await requests.resolveCode(issued)).toBe(roomId);
  });

  it('a release that gets no answer is abandoned after its deadline', async () => {
    answers.set('POST /api/code/plum-otter-cask/release', { status: 204, silent: true });
    const requests = new SignalingRequests(oddUrl, http, QUICK);
    await expect(
      requests.releaseCode('plum-otter-cask', crypto.randomUUID(), 'used'),
    ).resolves.toBeUndefined();
  });

  it('a room id that is not a UUID is refused on every surface', async () => {
    answers.set('GET /api/code/odd-room-id', { status: 200, body: { roomId: '../../etc' } });
    const requests = new SignalingRequests(oddUrl, http, QUICK);
    await expect(requests.resolveCode('odd-room-id')).rejects.toMatchObject({
      code: 'ERR_SIGNALING_UNREACHABLE',
    });
  });

  it('a server that never answers costs the code-request deadline, then says so', async () => {
    answers.set('POST /api/code', { status: 200, silent: true });
    const requests = new SignalingRequests(oddUrl, http, QUICK);
    await expect(requests.registerCode(crypto.randomUUID())).rejects.toMatchObject({
      code: 'ERR_REGISTER_CODE',
      message: expect.stringContaining('no answer within 0.3 s'),
    });
  });

  it('429 and 503 are named for what they are', async () => {
    answers.set('GET /api/code/busy-one', { status: 429, body: { error: 'Too many requests' } });
    answers.set('GET /api/code/busy-two', { status: 503, body: { error: 'Server busy' } });
    const requests = new SignalingRequests(oddUrl, http, QUICK);
    await expect(requests.resolveCode('busy-one')).rejects.toMatchObject({
      code: 'ERR_RATE_LIMITED',
    });
    await expect(requests.resolveCode('busy-two')).rejects.toMatchObject({
      code: 'ERR_SERVER_BUSY',
    });
  });
});

describe('reading the ICE server list', () => {
  it('takes the real server’s list as it is', async () => {
    const choice = await new SignalingRequests(ferry.url, http).iceServers();
    expect(choice.warning).toBeUndefined();
    expect(choice.servers.length).toBeGreaterThan(0);
  });

  it('skips a bad entry with a warning and keeps the good ones', async () => {
    answers.set('GET /api/turn-credentials', {
      status: 200,
      body: [
        { urls: 'stun:stun.example:3478' },
        { urls: 42 },
        { urls: ['turn:relay.example:3478?transport=udp'], username: 'u', credential: 'c' },
      ],
    });
    const choice = await new SignalingRequests(oddUrl, http, QUICK).iceServers();
    expect(choice.servers).toEqual([
      { urls: 'stun:stun.example:3478' },
      { urls: ['turn:relay.example:3478?transport=udp'], username: 'u', credential: 'c' },
    ]);
    expect(choice.warning).toMatch(/entry 2/);
  });

  it('reads an empty list as host candidates only, without a warning', async () => {
    answers.set('GET /api/turn-credentials', { status: 200, body: [] });
    expect(await new SignalingRequests(oddUrl, http, QUICK).iceServers()).toEqual({
      servers: [],
    });
  });

  it('falls back to STUN only, with a warning, on 429 or an answer that is no list', async () => {
    for (const answer of [
      { status: 429, body: { error: 'Too many requests' } },
      { status: 200, body: { iceServers: [] } },
    ]) {
      answers.set('GET /api/turn-credentials', answer);
      const choice = await new SignalingRequests(oddUrl, http, QUICK).iceServers();
      expect(choice.servers).toEqual(STUN_ONLY);
      expect(choice.warning).toMatch(/continuing with STUN only/);
    }
  });
});

describe('the byte-count report', () => {
  it('adds a completed batch to the counter and never throws, even when nobody answers', async () => {
    await new SignalingRequests(ferry.url, http).reportBytes(1234);
    const stats = (await (await fetch(`${ferry.url}/api/stats`)).json()) as { totalBytes: number };
    expect(stats.totalBytes).toBe(1234);
    answers.set('POST /api/stats/report', { status: 200, silent: true });
    await expect(
      new SignalingRequests(oddUrl, http, QUICK).reportBytes(10),
    ).resolves.toBeUndefined();
  });
});
