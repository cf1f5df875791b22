import { randomUUID } from 'node:crypto';
import { RATE_WINDOW_MS } from '../../src-shared/signaling/limits';
import { inMemoryFailureBudget, type FailureBudget } from './access/failure-budget';
import { inMemoryRateLimiter, type RateLimiter } from './access/rate-limiter';
import type { CodeStore } from './codes/code-store';
import { InMemoryCodeStore } from './codes/in-memory-code-store';
import type { RoomRegistry } from './rooms/room-registry';
import { InMemoryRoomRegistry } from './rooms/in-memory-room-registry';
import type { Clock } from './schedule';
import type { ByteCounter } from './stats/byte-counter';
import { InMemoryByteCounter } from './stats/in-memory-byte-counter';

/**
 * Everything a server shares with the other servers of its cluster: rooms, codes, the byte
 * counter, the per-IP counters and the failure budgets. A lone server keeps it all in memory.
 */
export interface SignalingState {
  /** This server's id among the servers sharing the state. */
  readonly instance: string;
  readonly registry: RoomRegistry;
  readonly codeStore: CodeStore;
  readonly counter: ByteCounter;
  /** The per-IP counter of one limit, `limit` attempts per RATE_WINDOW_MS. */
  limiter(name: string, limit: number): RateLimiter;
  /** A budget of `limit` failures per RATE_WINDOW_MS shared by every client. */
  budget(name: string, limit: number): FailureBudget;
  /** Why the server cannot rely on its state right now; undefined while it can. */
  healthProblem(): string | undefined;
}

/** The state of a server on its own: in memory, lost on restart, never unhealthy. */
export function inMemoryState(now: Clock): SignalingState {
  return {
    instance: randomUUID(),
    registry: new InMemoryRoomRegistry(),
    codeStore: new InMemoryCodeStore(now),
    counter: new InMemoryByteCounter(),
    limiter: (name, limit) => inMemoryRateLimiter(name, limit, RATE_WINDOW_MS),
    budget: (name, limit) => inMemoryFailureBudget(name, limit, RATE_WINDOW_MS),
    healthProblem: () => undefined,
  };
}
