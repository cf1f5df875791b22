import type { Redis, Result } from 'ioredis';
import { REDIS_KEYS } from '../cluster/redis-keys';
import type { Clock } from '../schedule';
import { CODE_OUTCOMES, type CodeOutcome } from '../../../src-shared/signaling/http-api';
import type { Claim, CodeStore, HeldCode } from './code-store';

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
    ferryReleaseCode(
      code: string,
      roomId: string,
      outcome: string,
      now: number,
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

// A release rewrites the value as "<expiresAt> <roomId> <outcome>" with the time the code has
// left, in one step, so that a lapse between reading and writing cannot revive a code. The room
// is compared in lower case, as rooms are.
const RELEASE = `
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local expiresAt, roomId = string.match(held, '^(%d+) (%S+)')
if not expiresAt or tonumber(expiresAt) <= tonumber(ARGV[3]) then return 0 end
if string.lower(roomId) ~= string.lower(ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left <= 0 then return 0 end
redis.call('SET', KEYS[1], expiresAt .. ' ' .. roomId .. ' ' .. ARGV[2], 'PX', left)
return 1`;

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
    client.defineCommand('ferryReleaseCode', { numberOfKeys: 1, lua: RELEASE });
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

  async resolve(code: string): Promise<HeldCode | undefined> {
    const held = await this.client.get(REDIS_KEYS.code + code);
    const match = held === null ? null : /^(\d+) (\S+)(?: (\S+))?$/.exec(held);
    if (match === null || this.now() >= Number(match[1])) return undefined;
    const outcome = CODE_OUTCOMES.find((known) => known === match[3]);
    return outcome === undefined ? { roomId: match[2] } : { roomId: match[2], outcome };
  }

  async release(code: string, roomId: string, outcome: CodeOutcome): Promise<boolean> {
    const released = await this.client.ferryReleaseCode(
      REDIS_KEYS.code + code,
      roomId,
      outcome,
      this.now(),
    );
    return released === 1;
  }

  async sweep(): Promise<void> {
    await this.client.zremrangebyscore(REDIS_KEYS.liveCodes, '-inf', this.now());
  }
}
