// Every Redis key and channel a cluster of signaling servers uses, in one place. The Lua scripts
// are handed these prefixes rather than spelling them again. All keys belong to one logical
// database of one Redis (a primary, optionally with replicas or Sentinel; not Redis Cluster,
// whose scripts may not touch keys they were not given).

const PREFIX = 'ferry:';

export const REDIS_KEYS = {
  /** LIST of the members of a room, in joining order: index 0 is the sender. TTL: SEAT_KEY_TTL_MS. */
  room: `${PREFIX}room:`,
  /** HASH per seated peer: its `room`, its `member` entry in that room and its `instance`. TTL too. */
  peer: `${PREFIX}peer:`,
  /** SET of the ids of the peers seated through one server, to free them when it dies. */
  instancePeers: `${PREFIX}instance-peers:`,
  /** STRING with a TTL per live server: its presence. */
  instanceAlive: `${PREFIX}instance-alive:`,
  /** SET of the instance ids of servers that entered the cluster and were not swept yet. */
  instances: `${PREFIX}instances`,
  /**
   * STRING per short code: `<expiresAt ms> <roomId>`, and ` <outcome>` once its sender released
   * it, which Redis expires with the code.
   */
  code: `${PREFIX}code:`,
  /** ZSET of live codes scored by expiry time: the count behind MAX_ACTIVE_CODES. */
  liveCodes: `${PREFIX}live-codes`,
  /** Prefix of the per-IP counters of each limit (rate-limiter-flexible adds `:<ip>`). */
  rate: `${PREFIX}rate:`,
  /** STRING: the all-time byte counter. */
  totalBytes: `${PREFIX}stats:total-bytes`,
} as const;

export const REDIS_CHANNELS = {
  /** Each new byte total, so that every server answers GET /api/stats from memory. */
  totalBytes: `${PREFIX}stats:total-bytes:updated`,
  /** Per server: events for the WebSocket peers connected to it. */
  wsInbox: `${PREFIX}ws-inbox:`,
  /** The socket.io Redis adapter's channel prefix (it appends `#/#<room>#`). */
  socketIo: `${PREFIX}socket.io`,
} as const;
