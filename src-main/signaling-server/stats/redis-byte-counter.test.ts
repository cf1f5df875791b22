import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import { RedisProcess } from '../test-support/redis-process';
import { json, postJson, startTestServer, stopTestServer } from '../test-support/test-server';

describeNeeding('redis', 'the byte counter in Redis (REDIS_URL)', () => {
  let redis: RedisProcess;
  let database = 0;

  beforeAll(async () => {
    redis = await RedisProcess.start();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  // Each test gets its own logical database, so totals never leak between tests.
  const freshUrl = () => `${redis.url}/${(database += 1)}`;
  const total = async (url: string) => json(await fetch(`${url}/api/stats`));

  it('survives a server restart', async () => {
    const redisUrl = freshUrl();
    const first = await startTestServer({ redisUrl });
    expect(await json(await postJson(`${first.url}/api/stats/report`, { bytes: 700 }))).toEqual({
      totalBytes: 700,
    });
    await stopTestServer(first);

    const second = await startTestServer({ redisUrl });
    expect(await total(second.url)).toEqual({ totalBytes: 700 });
    expect(await json(await postJson(`${second.url}/api/stats/report`, { bytes: 5 }))).toEqual({
      totalBytes: 705,
    });
  });

  it('gives two servers sharing the Redis one total', async () => {
    const redisUrl = freshUrl();
    const a = await startTestServer({ redisUrl });
    const b = await startTestServer({ redisUrl });
    await postJson(`${a.url}/api/stats/report`, { bytes: 100 });
    expect(await json(await postJson(`${b.url}/api/stats/report`, { bytes: 50 }))).toEqual({
      totalBytes: 150,
    });
    expect(await total(b.url)).toEqual({ totalBytes: 150 });
    expect(await total(a.url)).toEqual({ totalBytes: 150 });
  });

  it('answers GET /api/stats from memory while Redis is away, and a report with 500', async () => {
    const own = await RedisProcess.start();
    const server = await startTestServer({ redisUrl: own.url });
    await postJson(`${server.url}/api/stats/report`, { bytes: 42 });
    await own.stop();
    expect(await total(server.url)).toEqual({ totalBytes: 42 });
    const response = await postJson(`${server.url}/api/stats/report`, { bytes: 1 });
    expect(response.status).toBe(500);
    expect(await json(response)).toEqual({ error: 'Internal server error' });
  });

  it('refuses to start when the Redis cannot be reached, naming REDIS_URL', async () => {
    const own = await RedisProcess.start();
    await own.stop();
    await expect(startTestServer({ redisUrl: own.url })).rejects.toThrow(/REDIS_URL/);
  });
});
