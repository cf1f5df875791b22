import { Redis, type RedisOptions } from 'ioredis';
import type { LogSink } from '../log-sink';
import { errorMessage } from '../../../src-shared/format/error-message';

const CONNECTION: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 5000,
  // A request fails fast (500, or an `error` to a peer) while Redis is away instead of queueing
  // behind the reconnects, which go on every few seconds until Redis is back.
  maxRetriesPerRequest: 1,
};

type Phase = 'opening' | 'open' | 'lost' | 'closed';

/**
 * The three connections a server of a cluster holds to Redis, and their health: commands and
 * publishing share one; subscriptions need their own, one for Ferry's channels and one for the
 * socket.io adapter.
 */
export class RedisConnections {
  private phase: Phase = 'opening';
  private lastError = '';

  private constructor(
    readonly command: Redis,
    readonly subscriber: Redis,
    readonly socketIoSubscriber: Redis,
    private readonly log: LogSink,
  ) {}

  /** Connects all three; throws one line naming REDIS_URL when Redis cannot be reached. */
  static async open(url: string, log: LogSink): Promise<RedisConnections> {
    const connections = new RedisConnections(
      new Redis(url, CONNECTION),
      new Redis(url, CONNECTION),
      new Redis(url, CONNECTION),
      log,
    );
    for (const connection of connections.all) {
      connection.on('error', (error: Error) => connections.failed(error));
      connection.on('close', () => connections.lost());
      connection.on('ready', () => connections.recovered());
    }
    try {
      await Promise.all(connections.all.map((connection) => connection.connect()));
    } catch (error) {
      connections.close();
      // The connection's own error says why ("connect ECONNREFUSED …"); the rejection only that
      // the connection closed.
      const reason = connections.lastError || errorMessage(error);
      throw new Error(`Cannot use REDIS_URL: ${reason}`);
    }
    connections.phase = 'open';
    return connections;
  }

  /** Why this server cannot rely on Redis right now; undefined while every connection is ready. */
  problem(): string | undefined {
    if (this.all.every((connection) => connection.status === 'ready')) return undefined;
    return this.lastError === '' ? 'Redis unreachable' : `Redis unreachable: ${this.lastError}`;
  }

  close(): void {
    this.phase = 'closed';
    for (const connection of this.all) connection.disconnect();
  }

  private get all(): Redis[] {
    return [this.command, this.subscriber, this.socketIoSubscriber];
  }

  // Failures while opening are the start's own error, and a closed connection is no news.
  private lost(): void {
    if (this.phase !== 'open') return;
    this.phase = 'lost';
    this.log.error('Redis: connection lost; reconnecting');
  }

  // While Redis is away each connection retries every few seconds; say so once, not on every retry.
  private failed(error: Error): void {
    if (this.phase === 'opening') this.lastError ||= error.message;
    if (this.phase === 'open') this.lost();
    if (this.phase !== 'lost' || error.message === this.lastError) return;
    this.lastError = error.message;
    this.log.error(`Redis: ${error.message}`);
  }

  private recovered(): void {
    if (this.phase !== 'lost' || this.problem() !== undefined) return;
    this.phase = 'open';
    this.lastError = '';
    this.log.info('Redis: connected again');
  }
}
