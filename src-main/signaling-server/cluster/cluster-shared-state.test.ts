import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import {
  CODE_LIFETIME_MS,
  CODE_SWEEP_INTERVAL_MS,
  MAX_REPORTS_PER_IP,
} from '../../../src-shared/signaling/limits';
import { ManualClock, ManualTimers } from '../test-support/manual-time';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { startTestCluster } from '../test-support/test-cluster';
import { json, postJson } from '../test-support/test-server';

async function register(url: string, roomId: string): Promise<Response> {
  return postJson(`${url}/api/code`, { roomId });
}

async function registered(url: string, roomId: string): Promise<string> {
  const response = await register(url, roomId);
  expect(response.status).toBe(200);
  return ((await json(response)) as { code: string }).code;
}

const resolve = (url: string, code: string) => fetch(`${url}/api/code/${encodeURIComponent(code)}`);

describeNeeding('redis', 'state shared by servers through Redis', () => {
  describe('short codes', () => {
    it('a code registered on A resolves on B, and B matches it exactly as received', async () => {
      const { servers } = await startTestCluster(2);
      const roomId = randomUUID();
      const code = await registered(servers[0].url, roomId);
      const response = await resolve(servers[1].url, code);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({ roomId });
      for (const variant of [code.toUpperCase(), ` ${code}`, code.replaceAll('-', ' ')]) {
        const miss = await resolve(servers[1].url, variant);
        expect(miss.status).toBe(404);
        expect(await json(miss)).toEqual({ error: 'Code not found or expired' });
      }
    });

    it('a code released on A names how it ended on B, for its lifetime only', async () => {
      const clock = new ManualClock();
      const { servers } = await startTestCluster(2, { now: clock.now });
      const roomId = randomUUID();
      const code = await registered(servers[0].url, roomId);
      const releasePath = `/api/code/${encodeURIComponent(code)}/release`;
      const stranger = { roomId: randomUUID(), outcome: 'used' };
      expect((await postJson(`${servers[0].url}${releasePath}`, stranger)).status).toBe(404);
      const sender = { roomId: roomId.toUpperCase(), outcome: 'cancelled' };
      expect((await postJson(`${servers[0].url}${releasePath}`, sender)).status).toBe(204);
      const dead = await resolve(servers[1].url, code);
      expect(await json(dead)).toEqual({ roomId });
      expect(dead.headers.get('ferry-code-outcome')).toBe('cancelled');
      clock.advance(CODE_LIFETIME_MS);
      expect((await resolve(servers[1].url, code)).status).toBe(404);
    });

    it('MAX_ACTIVE_CODES is one cap for the whole cluster', async () => {
      const { servers } = await startTestCluster(2, { maxActiveCodes: 2 });
      await registered(servers[0].url, randomUUID());
      await registered(servers[1].url, randomUUID());
      for (const server of servers) {
        const response = await register(server.url, randomUUID());
        expect(response.status).toBe(503);
        expect(await json(response)).toEqual({ error: 'Server busy, try again shortly' });
      }
    });

    it('registrations racing on several servers never overshoot the cap', async () => {
      const { servers } = await startTestCluster(3, { maxActiveCodes: 5 });
      const statuses = await Promise.all(
        Array.from(
          { length: 12 },
          async (_, i) => (await register(servers[i % 3].url, randomUUID())).status,
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 503)).toHaveLength(7);
    });

    it('a code drawn on A collides with a live code registered on B', async () => {
      const { servers } = await startTestCluster(2, { randomIndex: () => 0 });
      const first = await registered(servers[1].url, randomUUID());
      const second = await registered(servers[0].url, randomUUID());
      // Every draw gives the same words, so A's ten three-word draws collide with B's code.
      expect(first.split('-')).toHaveLength(3);
      expect(second.split('-')).toHaveLength(4);
    });

    it('resolves for 10 minutes from registration on every server, then answers 404', async () => {
      const clock = new ManualClock();
      const { servers } = await startTestCluster(2, { now: clock.now });
      const roomId = randomUUID();
      const code = await registered(servers[0].url, roomId);
      clock.advance(CODE_LIFETIME_MS - 1);
      expect(await json(await resolve(servers[1].url, code))).toEqual({ roomId });
      clock.advance(1);
      for (const server of servers) expect((await resolve(server.url, code)).status).toBe(404);
    });

    it('a lapsed code frees its slot and may be drawn again for another room', async () => {
      const clock = new ManualClock();
      const timers = new ManualTimers();
      const { servers } = await startTestCluster(2, {
        now: clock.now,
        every: timers.every,
        maxActiveCodes: 1,
        randomIndex: () => 0,
      });
      const code = await registered(servers[0].url, randomUUID());
      expect((await register(servers[1].url, randomUUID())).status).toBe(503);
      clock.advance(CODE_LIFETIME_MS);
      await timers.fire(CODE_SWEEP_INTERVAL_MS);
      const roomId = randomUUID();
      expect(await registered(servers[1].url, roomId)).toBe(code);
      expect(await json(await resolve(servers[0].url, code))).toEqual({ roomId });
    });
  });

  describe('the byte counter', () => {
    it('is one total, whichever server a receiver reports to', async () => {
      const { servers } = await startTestCluster(3);
      const report = async (index: number, bytes: number) =>
        json(await postJson(`${servers[index].url}/api/stats/report`, { bytes }));
      expect(await report(0, 100)).toEqual({ totalBytes: 100 });
      expect(await report(1, 50)).toEqual({ totalBytes: 150 });
      expect(await report(2, 7)).toEqual({ totalBytes: 157 });
      // GET /api/stats answers from memory (spec), which the other servers' Redis subscription
      // brings up to date a moment after the report returned: the total arrives, it is not
      // there at once.
      for (const server of servers) {
        await expect
          .poll(async () => json(await fetch(`${server.url}/api/stats`)))
          .toEqual({ totalBytes: 157 });
      }
    });
  });

  describe('per-IP limits hold across servers', () => {
    it('turn credentials', async () => {
      const { servers } = await startTestCluster(2, { maxTurnRequestsPerIp: 2 });
      expect((await fetch(`${servers[0].url}/api/turn-credentials`)).status).toBe(200);
      expect((await fetch(`${servers[1].url}/api/turn-credentials`)).status).toBe(200);
      for (const server of servers) {
        const response = await fetch(`${server.url}/api/turn-credentials`);
        expect(response.status).toBe(429);
        expect(await json(response)).toEqual({ error: 'Too many requests' });
      }
    });

    it('codes: registering on A and resolving on B share one counter', async () => {
      const { servers } = await startTestCluster(2, { maxCodeRequestsPerIp: 2 });
      const code = await registered(servers[0].url, randomUUID());
      expect((await resolve(servers[1].url, code)).status).toBe(200);
      expect((await resolve(servers[0].url, code)).status).toBe(429);
      expect((await register(servers[1].url, randomUUID())).status).toBe(429);
    });

    it('reports: 60 per IP per 60 s for the whole cluster', async () => {
      const { servers } = await startTestCluster(2);
      for (let i = 0; i < MAX_REPORTS_PER_IP; i += 1) {
        const url = servers[i % 2].url;
        expect((await postJson(`${url}/api/stats/report`, { bytes: 1 })).status).toBe(200);
      }
      for (const server of servers) {
        const response = await postJson(`${server.url}/api/stats/report`, { bytes: 1 });
        expect(response.status).toBe(429);
        expect(await json(response)).toEqual({ error: 'Too many reports' });
      }
    });

    it('connections: both transports on every server counted together', async () => {
      const { servers } = await startTestCluster(3, { maxConnectionsPerIp: 2 });
      await WsPeer.connect(servers[0].url);
      await SocketIoPeer.connect(servers[1].url);
      const refused = await WsPeer.connect(servers[2].url);
      expect(await refused.next()).toEqual({ type: 'error', message: 'Too many connections' });
      await expect(SocketIoPeer.connect(servers[0].url)).rejects.toThrow('Too many connections');
    });

    it('counts each client behind a trusted proxy on its own, across servers', async () => {
      const { servers } = await startTestCluster(2, {
        maxTurnRequestsPerIp: 1,
        trustedProxyCount: 1,
      });
      const turn = (url: string, client: string) =>
        fetch(`${url}/api/turn-credentials`, { headers: { 'x-forwarded-for': client } });
      expect((await turn(servers[0].url, '198.51.100.1')).status).toBe(200);
      expect((await turn(servers[1].url, '198.51.100.2')).status).toBe(200);
      expect((await turn(servers[1].url, '198.51.100.1')).status).toBe(429);
    });
  });
});
