import { afterEach } from 'vitest';
import type { SignalingServerOptions } from '../options';
import { RedisProcess } from './redis-process';
import { startTestServer, stopTestServer, type TestServer } from './test-server';

export interface TestCluster {
  redis: RedisProcess;
  servers: TestServer[];
}

const clusters = new Set<TestCluster>();

// Servers first, so that each leaves the cluster while its Redis still answers.
afterEach(async () => {
  for (const cluster of clusters) {
    await Promise.all(cluster.servers.map((server) => stopTestServer(server)));
    await cluster.redis.stop();
  }
  clusters.clear();
});

/** A throwaway redis-server and `count` servers sharing it, each on its own loopback port. */
export async function startTestCluster(
  count: number,
  options: SignalingServerOptions = {},
): Promise<TestCluster> {
  const cluster: TestCluster = { redis: await RedisProcess.start(), servers: [] };
  clusters.add(cluster);
  for (let i = 0; i < count; i += 1) {
    cluster.servers.push(await startTestServer({ ...options, redisUrl: cluster.redis.url }));
  }
  return cluster;
}
