import type { Redis, Result } from 'ioredis';
import { ROOM_CAPACITY } from '../../../src-shared/signaling/limits';
import { SEAT_KEY_TTL_MS } from '../../../src-shared/signaling/cluster-timing';
import { REDIS_KEYS } from '../cluster/redis-keys';
import type { PeerAddress } from './peer-address';
import { decodeMembers, encodeMember } from './redis-room-member';
import type { Departure, JoinOutcome, Room, RoomRegistry } from './room-registry';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ferryJoinRoom(
      room: string,
      peer: string,
      instancePeers: string,
      instanceAlive: string,
      member: string,
      roomId: string,
      peerId: string,
      instance: string,
      capacity: number,
      roomPrefix: string,
      seatTtlMs: number,
    ): Result<unknown, Context>;
    ferryLeaveRoom(
      peer: string,
      peerId: string,
      roomPrefix: string,
      instancePeersPrefix: string,
    ): Result<unknown, Context>;
    ferryRoomOf(peer: string, roomPrefix: string): Result<unknown, Context>;
  }
}

// One script per step, so that a check and the change it guards are one atomic step even when
// two servers act on the same room at once. A join leaves the joiner's previous room first and
// answers {'rejoined', position}, {'full', left} or {'joined', left, others}, where `left` is
// false or {room, remaining}. A seat's keys carry a TTL, renewed with the presence
// (InstancePresence.renew), so that seats nobody frees do not stay in Redis for ever.
const JOIN = `
if redis.call('EXISTS', KEYS[4]) == 0 then
  return redis.error_reply('ERR this server is rejoining the cluster; try again')
end
local place = redis.call('HMGET', KEYS[2], 'room', 'member')
if place[1] == ARGV[2] then
  local peers = redis.call('LRANGE', KEYS[1], 0, -1)
  return {'rejoined', peers[1] == place[2] and 0 or 1}
end
local left = false
if place[1] then
  local previous = ARGV[6] .. place[1]
  redis.call('LREM', previous, 1, place[2])
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[3])
  left = {place[1], redis.call('LRANGE', previous, 0, -1)}
end
local others = redis.call('LRANGE', KEYS[1], 0, -1)
if #others >= tonumber(ARGV[5]) then return {'full', left} end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'room', ARGV[2], 'member', ARGV[1], 'instance', ARGV[4])
redis.call('SADD', KEYS[3], ARGV[3])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return {'joined', left, others}`;

const LEAVE = `
local place = redis.call('HMGET', KEYS[1], 'room', 'member', 'instance')
if not place[1] then return false end
local room = ARGV[2] .. place[1]
redis.call('LREM', room, 1, place[2])
redis.call('DEL', KEYS[1])
redis.call('SREM', ARGV[3] .. place[3], ARGV[1])
return {place[1], redis.call('LRANGE', room, 0, -1)}`;

const ROOM_OF = `
local room = redis.call('HGET', KEYS[1], 'room')
if not room then return false end
return {room, redis.call('LRANGE', ARGV[1] .. room, 0, -1)}`;

/** The room id and members a script answers with, or undefined for its nil (false in Lua). */
function decodePlace(reply: unknown): { roomId: string; peers: PeerAddress[] } | undefined {
  if (reply === null) return undefined;
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') {
    throw new Error(`Malformed room reply from Redis: ${String(reply)}`);
  }
  return { roomId: reply[0], peers: decodeMembers(reply[1]) };
}

/** The registry of a cluster: rooms in Redis, shared by every server. */
export class RedisRoomRegistry implements RoomRegistry {
  constructor(private readonly client: Redis) {
    client.defineCommand('ferryJoinRoom', { numberOfKeys: 4, lua: JOIN });
    client.defineCommand('ferryLeaveRoom', { numberOfKeys: 1, lua: LEAVE });
    client.defineCommand('ferryRoomOf', { numberOfKeys: 1, lua: ROOM_OF, readOnly: true });
  }

  async join(roomId: string, peer: PeerAddress): Promise<JoinOutcome> {
    const reply = await this.client.ferryJoinRoom(
      REDIS_KEYS.room + roomId,
      REDIS_KEYS.peer + peer.id,
      REDIS_KEYS.instancePeers + peer.instance,
      REDIS_KEYS.instanceAlive + peer.instance,
      encodeMember(peer),
      roomId,
      peer.id,
      peer.instance,
      ROOM_CAPACITY,
      REDIS_KEYS.room,
      SEAT_KEY_TTL_MS,
    );
    if (!Array.isArray(reply)) throw new Error(`Malformed join reply from Redis: ${String(reply)}`);
    const [kind, ...rest] = reply as unknown[];
    if (kind === 'rejoined') return { kind, role: rest[0] === 0 ? 'sender' : 'receiver' };
    const place = decodePlace(rest[0]);
    const left = place && { roomId: place.roomId, remaining: place.peers };
    if (kind === 'full') return { kind, left };
    if (kind !== 'joined') throw new Error(`Malformed join reply from Redis: ${String(kind)}`);
    const others = decodeMembers(rest[1]);
    return { kind, role: others.length === 0 ? 'sender' : 'receiver', others, left };
  }

  async leave(peerId: string): Promise<Departure | undefined> {
    const place = decodePlace(
      await this.client.ferryLeaveRoom(
        REDIS_KEYS.peer + peerId,
        peerId,
        REDIS_KEYS.room,
        REDIS_KEYS.instancePeers,
      ),
    );
    return place && { roomId: place.roomId, remaining: place.peers };
  }

  async roomOf(peerId: string): Promise<Room | undefined> {
    const place = decodePlace(
      await this.client.ferryRoomOf(REDIS_KEYS.peer + peerId, REDIS_KEYS.room),
    );
    return place && { id: place.roomId, peers: place.peers };
  }
}
