import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect, it, onTestFinished } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import { RedisRoomRegistry } from '../rooms/redis-room-registry';
import { join } from '../test-support/any-peer';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { RedisProcess } from '../test-support/redis-process';
import { startTestCluster } from '../test-support/test-cluster';
import { SEAT_KEY_TTL_MS } from '../../../src-shared/signaling/cluster-timing';
import { InstancePresence } from './instance-presence';
import { REDIS_KEYS } from './redis-keys';

/** Time left on a key that must be on its way out; never -1 (no TTL) or -2 (gone). */
const A_LITTLE_LEFT_MS = 1_000;

function adminOf(url: string): Redis {
  const admin = new Redis(url);
  onTestFinished(() => {
    admin.disconnect();
  });
  return admin;
}

async function ttls(admin: Redis, keys: string[]): Promise<number[]> {
  return Promise.all(keys.map((key) => admin.pttl(key)));
}

describeNeeding('redis', "the Redis keys of a room's seats", () => {
  it('carry a TTL once peers sit in a room, so a room nobody frees does not stay for ever', async () => {
    const { redis, servers } = await startTestCluster(1);
    const roomId = randomUUID();
    await join(await WsPeer.connect(servers[0].url), roomId);
    await join(await SocketIoPeer.connect(servers[0].url), roomId);
    const admin = adminOf(redis.url);
    const keys = [
      REDIS_KEYS.room + roomId,
      ...(await admin.keys(`${REDIS_KEYS.peer}*`)),
      ...(await admin.keys(`${REDIS_KEYS.instancePeers}*`)),
    ];
    expect(keys).toHaveLength(4);
    for (const ttl of await ttls(admin, keys)) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(SEAT_KEY_TTL_MS);
    }
  });

  it("are renewed with the server's presence while the room is in use", async () => {
    const redis = await RedisProcess.start();
    onTestFinished(() => redis.stop());
    const client = adminOf(redis.url);
    const instance = randomUUID();
    const presence = new InstancePresence(client, instance);
    await presence.enter();
    const registry = new RedisRoomRegistry(client);
    const roomId = randomUUID();
    const peer = { id: randomUUID(), transport: 'ws', instance } as const;
    expect(await registry.join(roomId, peer)).toMatchObject({ kind: 'joined', role: 'sender' });
    const keys = [
      REDIS_KEYS.room + roomId,
      REDIS_KEYS.peer + peer.id,
      REDIS_KEYS.instancePeers + instance,
    ];
    // Time has all but run out on every key...
    for (const key of keys) await client.pexpire(key, A_LITTLE_LEFT_MS);
    // ...when the presence is renewed, which renews them in full.
    expect(await presence.renew()).toBe(true);
    for (const ttl of await ttls(client, keys)) {
      expect(ttl).toBeGreaterThan(SEAT_KEY_TTL_MS - A_LITTLE_LEFT_MS);
    }
  });
});
