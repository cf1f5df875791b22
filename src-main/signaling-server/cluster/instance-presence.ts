import type { Redis, Result } from 'ioredis';
import type { PeerAddress } from '../rooms/peer-address';
import { decodeMembers } from '../rooms/redis-room-member';
import { PRESENCE_TTL_MS, SEAT_KEY_TTL_MS } from '../../../src-shared/signaling/cluster-timing';
import { REDIS_KEYS } from './redis-keys';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ferrySweepInstances(
      instances: string,
      roomPrefix: string,
      peerPrefix: string,
      instancePeersPrefix: string,
      instanceAlivePrefix: string,
    ): Result<unknown, Context>;
    ferryRenewSeats(
      instancePeers: string,
      peerPrefix: string,
      roomPrefix: string,
      seatTtlMs: number,
    ): Result<unknown, Context>;
    ferryWithdrawInstance(
      instances: string,
      roomPrefix: string,
      peerPrefix: string,
      instancePeersPrefix: string,
      instanceAlivePrefix: string,
      instance: string,
    ): Result<unknown, Context>;
  }
}

// Frees every seat taken through one server, collecting the rooms that lost someone; then lists
// who is left in those rooms, once all evictions are done, so that nobody evicted is told.
const EVICTION = `
local function evict(id, rooms)
  local peersKey = ARGV[3] .. id
  for _, peerId in ipairs(redis.call('SMEMBERS', peersKey)) do
    local peerKey = ARGV[2] .. peerId
    local place = redis.call('HMGET', peerKey, 'room', 'member')
    if place[1] then
      redis.call('LREM', ARGV[1] .. place[1], 1, place[2])
      rooms[place[1]] = true
    end
    redis.call('DEL', peerKey)
  end
  redis.call('DEL', peersKey)
  redis.call('SREM', KEYS[1], id)
end
local function leftBehind(rooms)
  local members = {}
  for room in pairs(rooms) do
    for _, member in ipairs(redis.call('LRANGE', ARGV[1] .. room, 0, -1)) do
      members[#members + 1] = member
    end
  end
  return members
end
local rooms = {}`;

// Atomic, so when every survivor sweeps the same dead server only one of them hears who is left.
const SWEEP = `${EVICTION}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[4] .. id) == 0 then evict(id, rooms) end
end
return leftBehind(rooms)`;

// Renews the TTL of every key a server's seats live in, so that a room in use never lapses.
const RENEW_SEATS = `
redis.call('PEXPIRE', KEYS[1], ARGV[3])
for _, peerId in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local peerKey = ARGV[1] .. peerId
  redis.call('PEXPIRE', peerKey, ARGV[3])
  local room = redis.call('HGET', peerKey, 'room')
  if room then redis.call('PEXPIRE', ARGV[2] .. room, ARGV[3]) end
end`;

const WITHDRAW = `${EVICTION}
redis.call('DEL', ARGV[4] .. ARGV[5])
evict(ARGV[5], rooms)
return leftBehind(rooms)`;

/**
 * One server's presence in the cluster: a key with a TTL that the server renews while it lives.
 * Once it lapses the server counts as dead, and any survivor's sweep frees its peers' seats.
 */
export class InstancePresence {
  constructor(
    private readonly client: Redis,
    readonly instance: string,
  ) {
    client.defineCommand('ferrySweepInstances', { numberOfKeys: 1, lua: SWEEP });
    client.defineCommand('ferryWithdrawInstance', { numberOfKeys: 1, lua: WITHDRAW });
    client.defineCommand('ferryRenewSeats', { numberOfKeys: 1, lua: RENEW_SEATS });
  }

  async enter(): Promise<void> {
    await this.client
      .multi()
      .set(REDIS_KEYS.instanceAlive + this.instance, '1', 'PX', PRESENCE_TTL_MS)
      .sadd(REDIS_KEYS.instances, this.instance)
      .exec();
  }

  /**
   * Renews the presence and the TTLs of this server's seats. False when the presence had lapsed
   * (Redis was out of reach, or lost its data, for longer than the TTL): this server's seats are
   * gone or about to be swept, and are left alone.
   */
  async renew(): Promise<boolean> {
    const alive =
      (await this.client.pexpire(REDIS_KEYS.instanceAlive + this.instance, PRESENCE_TTL_MS)) === 1;
    if (alive) {
      await this.client.ferryRenewSeats(
        REDIS_KEYS.instancePeers + this.instance,
        REDIS_KEYS.peer,
        REDIS_KEYS.room,
        SEAT_KEY_TTL_MS,
      );
    }
    return alive;
  }

  /** Frees the seats of every server whose presence lapsed; returns the peers left behind. */
  async sweep(): Promise<PeerAddress[]> {
    return decodeMembers(
      await this.client.ferrySweepInstances(
        REDIS_KEYS.instances,
        REDIS_KEYS.room,
        REDIS_KEYS.peer,
        REDIS_KEYS.instancePeers,
        REDIS_KEYS.instanceAlive,
      ),
    );
  }

  /** Frees this server's own seats and ends its presence; returns the peers left behind. */
  async withdraw(): Promise<PeerAddress[]> {
    return decodeMembers(
      await this.client.ferryWithdrawInstance(
        REDIS_KEYS.instances,
        REDIS_KEYS.room,
        REDIS_KEYS.peer,
        REDIS_KEYS.instancePeers,
        REDIS_KEYS.instanceAlive,
        this.instance,
      ),
    );
  }
}
