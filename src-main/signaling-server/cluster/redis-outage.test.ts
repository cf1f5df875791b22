import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import { join, nextEvent } from '../test-support/any-peer';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { RedisProcess } from '../test-support/redis-process';
import { startTestCluster } from '../test-support/test-cluster';
import {
  json,
  postJson,
  startTestServer,
  stopTestServer,
  type TestServer,
} from '../test-support/test-server';
import { within } from '../test-support/within';

// ioredis retries every two seconds at most; this leaves room for a slow, shared machine.
const RECONNECT_DEADLINE_MS = 15_000;
const EVENT_DEADLINE_MS = 5000;

const servers: TestServer[] = [];
const redises: RedisProcess[] = [];

// Servers first, so that each leaves the cluster while its Redis still answers.
afterEach(async () => {
  for (const server of servers.splice(0)) await stopTestServer(server);
  for (const redis of redises.splice(0)) await redis.stop();
});

async function startRedis(port?: number): Promise<RedisProcess> {
  const redis = await RedisProcess.start(port);
  redises.push(redis);
  return redis;
}

async function startServer(redisUrl: string): Promise<TestServer> {
  const server = await startTestServer({ redisUrl });
  servers.push(server);
  return server;
}

describeNeeding('redis', 'a cluster server and its Redis', () => {
  it('reports unhealthy (503, still JSON) while Redis is lost, and healthy once it is back, without a restart', async () => {
    const redis = await startRedis();
    const server = await startServer(redis.url);
    const healthy = await fetch(`${server.url}/health`);
    expect(healthy.status).toBe(200);
    expect(await json(healthy)).toEqual({ status: 'healthy', uptime: expect.any(Number) });

    await redis.stop();
    await within(EVENT_DEADLINE_MS, 'loss noticed', server.logged(/Redis: connection lost/));
    const unhealthy = await fetch(`${server.url}/health`);
    expect(unhealthy.status).toBe(503);
    expect(await json(unhealthy)).toEqual({
      status: 'unhealthy',
      uptime: expect.any(Number),
      reason: expect.stringMatching(/^Redis unreachable/),
    });

    await startRedis(redis.port);
    await within(RECONNECT_DEADLINE_MS, 'reconnect', server.logged(/Redis: connected again/));
    const recovered = await fetch(`${server.url}/health`);
    expect(recovered.status).toBe(200);
    expect(await json(recovered)).toEqual({ status: 'healthy', uptime: expect.any(Number) });
  });

  it('answers a join with an error while Redis is lost; a Redis back without its data drops the peers it lost, and seats newcomers', async () => {
    const redis = await startRedis();
    const server = await startServer(redis.url);
    const stranded = await WsPeer.connect(server.url);
    expect(await stranded.join(randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });

    await redis.stop();
    await within(EVENT_DEADLINE_MS, 'loss noticed', server.logged(/Redis: connection lost/));
    const during = await WsPeer.connect(server.url);
    expect(await within(EVENT_DEADLINE_MS, 'join answer', during.join(randomUUID()))).toEqual({
      type: 'error',
      message: 'Internal server error',
    });
    const registration = await postJson(`${server.url}/api/code`, { roomId: randomUUID() });
    expect(registration.status).toBe(500);
    expect(await json(registration)).toEqual({ error: 'Internal server error' });

    // A Redis without persistence comes back empty: the stranded peer's room is gone.
    await startRedis(redis.port);
    expect(await within(RECONNECT_DEADLINE_MS, 'drop', stranded.closed)).toEqual({
      code: 1013,
      reason: 'Room lost; join again',
    });
    await within(EVENT_DEADLINE_MS, 'rejoin', server.logged(/cluster presence had lapsed/));
    const newcomer = await SocketIoPeer.connect(server.url);
    expect(await newcomer.join(randomUUID())).toEqual({
      event: 'room-joined',
      payload: { role: 'sender' },
    });
  });

  it('a brief loss of every connection, Redis keeping its data, leaves rooms and peers as they were', async () => {
    const { redis, servers: pair } = await startTestCluster(2);
    const roomId = randomUUID();
    const sender = await SocketIoPeer.connect(pair[0].url);
    const receiver = await WsPeer.connect(pair[1].url);
    await join(sender, roomId);
    await join(receiver, roomId);
    await nextEvent(sender);

    const admin = new Redis(redis.url);
    try {
      // Every client but this one: the servers' command and subscriber connections alike.
      await admin.call('CLIENT', 'KILL', 'USER', 'default');
    } finally {
      admin.disconnect();
    }
    for (const server of pair) {
      await within(RECONNECT_DEADLINE_MS, 'reconnect', server.logged(/Redis: connected again/));
    }

    sender.emitRaw('signal', { signal: { sdp: 'offer' }, roomId });
    expect(await within(EVENT_DEADLINE_MS, 'offer', receiver.next())).toEqual({
      type: 'signal',
      signal: { sdp: 'offer' },
      sender: sender.id,
    });
    receiver.send({ type: 'signal', signal: { sdp: 'answer' }, roomId });
    expect(await within(EVENT_DEADLINE_MS, 'answer', nextEvent(sender))).toMatchObject({
      type: 'signal',
      signal: { sdp: 'answer' },
    });
    for (const server of pair) expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
