import { randomUUID } from 'node:crypto';
import { RATE_WINDOW_MS } from '../../../src-shared/signaling/limits';
import type { RateLimiter } from '../access/rate-limiter';
import type { FailureBudget } from '../access/failure-budget';
import { redisFailureBudget, redisRateLimiter } from '../access/redis-rate-limiter';
import { RedisCodeStore } from '../codes/redis-code-store';
import type { LogSink } from '../log-sink';
import { RedisRoomRegistry } from '../rooms/redis-room-registry';
import type { SignalingHub } from '../rooms/signaling-hub';
import type { Clock, Every } from '../schedule';
import type { SignalingState } from '../signaling-state';
import { RedisByteCounter } from '../stats/redis-byte-counter';
import { PRESENCE_REFRESH_INTERVAL_MS } from '../../../src-shared/signaling/cluster-timing';
import { InstancePresence } from './instance-presence';
import { RedisConnections } from './redis-connections';
import { socketIoRedisAdapter, type SocketIoAdapter } from './socket-io-redis-adapter';
import { WsRelay } from './ws-relay';
import { errorMessage } from '../../../src-shared/format/error-message';

/**
 * One server's membership of a cluster (REDIS_URL): every piece of shared state in Redis, the
 * relays that reach peers connected to other servers, and the presence that lets survivors free
 * the seats of a server that died.
 */
export class SignalingCluster implements SignalingState {
  readonly instance = randomUUID();
  readonly registry: RedisRoomRegistry;
  readonly codeStore: RedisCodeStore;
  private readonly presence: InstancePresence;
  private stopBeat: () => void = () => undefined;
  private beating: Promise<void> | undefined;

  private constructor(
    private readonly connections: RedisConnections,
    readonly counter: RedisByteCounter,
    now: Clock,
    private readonly log: LogSink,
  ) {
    this.registry = new RedisRoomRegistry(connections.command);
    this.codeStore = new RedisCodeStore(connections.command, now);
    this.presence = new InstancePresence(connections.command, this.instance);
  }

  /** Connects to Redis and enters the cluster; throws one line naming REDIS_URL when it cannot. */
  static async join(url: string, now: Clock, log: LogSink): Promise<SignalingCluster> {
    const connections = await RedisConnections.open(url, log);
    try {
      const counter = await RedisByteCounter.follow(
        connections.command,
        connections.subscriber,
        log,
      );
      const cluster = new SignalingCluster(connections, counter, now, log);
      await cluster.presence.enter();
      return cluster;
    } catch (error) {
      connections.close();
      throw new Error(`Cannot use REDIS_URL: ${errorMessage(error)}`);
    }
  }

  limiter(name: string, limit: number): RateLimiter {
    return redisRateLimiter(this.connections.command, name, limit, RATE_WINDOW_MS);
  }

  budget(name: string, limit: number): FailureBudget {
    return redisFailureBudget(this.connections.command, name, limit, RATE_WINDOW_MS);
  }

  healthProblem(): string | undefined {
    return this.connections.problem();
  }

  socketIoAdapter(): SocketIoAdapter {
    return socketIoRedisAdapter(
      this.connections.command,
      this.connections.socketIoSubscriber,
      this.log,
    );
  }

  /** Relays events to the hub's WebSocket peers from other servers and keeps the presence alive. */
  async serve(hub: SignalingHub, every: Every): Promise<void> {
    const relay = await WsRelay.listen(
      this.connections.command,
      this.connections.subscriber,
      this.instance,
      (peerId, event) => hub.deliverHere(peerId, event),
    );
    hub.relayVia('ws', relay);
    const beat = () => {
      this.beating ??= this.beat(hub)
        .catch((error: unknown) => {
          // While Redis is away the connections have said so already, once.
          if (this.connections.problem() === undefined) {
            this.log.error(`Keeping the cluster presence failed: ${String(error)}`);
          }
        })
        .finally(() => {
          this.beating = undefined;
        });
    };
    const stopTimer = every(PRESENCE_REFRESH_INTERVAL_MS, beat);
    // Back from an outage: find out at once whether the presence outlived it.
    this.connections.command.on('ready', beat);
    this.stopBeat = () => {
      stopTimer();
      this.connections.command.off('ready', beat);
    };
  }

  /** Frees this server's seats and tells the peers left behind, as a stopping server should. */
  async leave(hub: SignalingHub): Promise<void> {
    this.stopBeat();
    await this.beating;
    try {
      await hub.departed(await this.presence.withdraw());
    } catch (error) {
      this.log.error(`Leaving the cluster failed; survivors will free the seats: ${String(error)}`);
    }
  }

  close(): void {
    this.connections.close();
  }

  private async beat(hub: SignalingHub): Promise<void> {
    if (!(await this.presence.renew())) {
      // Redis was out of reach, or lost its data, for longer than the presence lasts: this
      // server's seats are freed or about to be, so its peers must start over to be seated again.
      await hub.departed(await this.presence.withdraw());
      hub.dropAll();
      await this.presence.enter();
      this.log.error('The cluster presence had lapsed: peers were disconnected to join again');
    }
    await hub.departed(await this.presence.sweep());
  }
}
