import type { Redis } from 'ioredis';
import { REDIS_CHANNELS, REDIS_KEYS } from '../cluster/redis-keys';
import type { LogSink } from '../log-sink';
import type { ByteCounter } from './byte-counter';

// One round trip, and every server hears of the new total in the order Redis produced it.
const ADD_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], total)
return total`;

/**
 * The counter kept in Redis (REDIS_URL): it survives restarts and servers sharing the Redis see
 * one total. Reads are answered from memory, which each report and each server's publish keeps
 * current.
 */
export class RedisByteCounter implements ByteCounter {
  private known = 0;

  private constructor(private readonly client: Redis) {}

  /** Reads the total and follows it; resolves once both are in place. */
  static async follow(client: Redis, subscriber: Redis, log: LogSink): Promise<RedisByteCounter> {
    const counter = new RedisByteCounter(client);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === REDIS_CHANNELS.totalBytes) counter.observe(Number(message));
    });
    await subscriber.subscribe(REDIS_CHANNELS.totalBytes);
    await counter.reload();
    // Totals published while the subscriber was reconnecting were missed; read the key again.
    subscriber.on('ready', () => {
      counter.reload().catch((error: unknown) => log.error(`Redis: ${String(error)}`));
    });
    return counter;
  }

  get total(): number {
    return this.known;
  }

  async add(bytes: number): Promise<number> {
    const total = Number(
      await this.client.eval(
        ADD_SCRIPT,
        1,
        REDIS_KEYS.totalBytes,
        bytes,
        REDIS_CHANNELS.totalBytes,
      ),
    );
    this.observe(total);
    return total;
  }

  private async reload(): Promise<void> {
    this.observe(Number((await this.client.get(REDIS_KEYS.totalBytes)) ?? 0));
  }

  // The total only grows, so the largest figure seen is the newest, whatever order news arrives in.
  private observe(total: number): void {
    if (Number.isFinite(total) && total > this.known) this.known = total;
  }
}
