import { Redis, type RedisOptions } from 'ioredis';
import type { LogSink } from '../log-sink';
import type { ByteCounter } from './byte-counter';

const TOTAL_KEY = 'ferry:stats:total-bytes';
const TOTAL_CHANNEL = 'ferry:stats:total-bytes:updated';

// One round trip, and every server hears of the new total in the order Redis produced it.
const ADD_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], total)
return total`;

const CONNECTION: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 5000,
  // A report fails fast (500) while Redis is away instead of queueing behind a reconnect.
  maxRetriesPerRequest: 1,
};

/**
 * The counter kept in Redis (REDIS_URL): it survives restarts and servers sharing the Redis see
 * one total. Reads are answered from memory, which each report and each server's publish keeps
 * current.
 */
export class RedisByteCounter implements ByteCounter {
  private known = 0;
  private lastError = '';

  private constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly log: LogSink,
  ) {}

  static async open(url: string, log: LogSink): Promise<RedisByteCounter> {
    const counter = new RedisByteCounter(
      new Redis(url, CONNECTION),
      new Redis(url, CONNECTION),
      log,
    );
    try {
      await counter.start();
    } catch (error) {
      counter.client.disconnect();
      counter.subscriber.disconnect();
      throw new Error(
        `Cannot use REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return counter;
  }

  get total(): number {
    return this.known;
  }

  async add(bytes: number): Promise<number> {
    const total = Number(await this.client.eval(ADD_SCRIPT, 1, TOTAL_KEY, bytes, TOTAL_CHANNEL));
    this.observe(total);
    return total;
  }

  async close(): Promise<void> {
    this.client.disconnect();
    this.subscriber.disconnect();
  }

  private async start(): Promise<void> {
    for (const connection of [this.client, this.subscriber]) {
      connection.on('error', (error: Error) => this.report(error));
      connection.on('ready', () => {
        this.lastError = '';
      });
    }
    await Promise.all([this.client.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (_channel: string, message: string) =>
      this.observe(Number(message)),
    );
    await this.subscriber.subscribe(TOTAL_CHANNEL);
    await this.reload();
    // Totals published while the subscriber was reconnecting were missed; read the key again.
    this.subscriber.on('ready', () => {
      this.reload().catch((error: Error) => this.report(error));
    });
  }

  private async reload(): Promise<void> {
    this.observe(Number((await this.client.get(TOTAL_KEY)) ?? 0));
  }

  // The total only grows, so the largest figure seen is the newest, whatever order news arrives in.
  private observe(total: number): void {
    if (Number.isFinite(total) && total > this.known) this.known = total;
  }

  // While Redis is away the client retries every few seconds; say so once, not on every retry.
  private report(error: Error): void {
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.log.error(`Redis: ${error.message}`);
  }
}
