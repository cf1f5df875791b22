import type { Redis, Result } from 'ioredis';
import { REDIS_KEYS } from '../cluster/redis-keys';
import type { Clock } from '../schedule';
import type { Claim, CodeStore } from './code-store';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ferryClaimCode(
      code: string,
      liveCodes: string,
      roomId: string,
      lifetimeMs: number,
      expiresAt: number,
      now: number,
      capacity: number,
      codeName: string,
    ): Result<unknown, Context>;
  }
}

// The cap and the claim in one atomic step, so that servers registering at once cannot overshoot
// it together. Lapsed codes leave the count here already, not only at the sweep. A code's value
// is "<expiresAt> <roomId>": the server's clock decides whether it is live, as in memory, and
// Redis's own expiry only clears it away.
const CLAIM = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 'full' end
local held = redis.call('GET', KEYS[1])
if held and tonumber(string.match(held, '^%d+')) > tonumber(ARGV[4]) then return 'taken' end
redis.call('SET', KEYS[1], ARGV[3] .. ' ' .. ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[6])
return 'claimed'`;

function isClaim(value: unknown): value is Claim {
  return value === 'claimed' || value === 'taken' || value === 'full';
}

/**
 * The codes of a cluster: each a key that Redis expires with the code, plus a sorted set of live
 * codes by expiry that MAX_ACTIVE_CODES counts, so the cap is one for all servers.
 */
export class RedisCodeStore implements CodeStore {
  constructor(
    private readonly client: Redis,
    private readonly now: Clock,
  ) {
    client.defineCommand('ferryClaimCode', { numberOfKeys: 2, lua: CLAIM });
  }

  async claim(code: string, roomId: string, expiresAt: number, capacity: number): Promise<Claim> {
    const now = this.now();
    const claim = await this.client.ferryClaimCode(
      REDIS_KEYS.code + code,
      REDIS_KEYS.liveCodes,
      roomId,
      Math.max(1, expiresAt - now),
      expiresAt,
      now,
      capacity,
      code,
    );
    if (!isClaim(claim)) throw new Error(`Unexpected reply to a code claim: ${String(claim)}`);
    return claim;
  }

  async resolve(code: string): Promise<string | undefined> {
    const held = await this.client.get(REDIS_KEYS.code + code);
    const match = held === null ? null : /^(\d+) (.+)$/.exec(held);
    if (match === null) return undefined;
    return this.now() < Number(match[1]) ? match[2] : undefined;
  }

  async sweep(): Promise<void> {
    await this.client.zremrangebyscore(REDIS_KEYS.liveCodes, '-inf', this.now());
  }
}
