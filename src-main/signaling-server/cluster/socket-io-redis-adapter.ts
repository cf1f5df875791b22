import { createAdapter, type RedisAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Namespace } from 'socket.io';
import type { LogSink } from '../log-sink';
import { REDIS_CHANNELS } from './redis-keys';

export type SocketIoAdapter = (namespace: Namespace) => RedisAdapter;

/**
 * The official socket.io Redis adapter: an emit to a socket id reaches that socket on whichever
 * server of the cluster holds it.
 */
export function socketIoRedisAdapter(
  publisher: Redis,
  subscriber: Redis,
  log: LogSink,
): SocketIoAdapter {
  // The adapter drops the promise of every publish, so one failing while Redis is away would be an
  // unhandled rejection, which ends a Node process; its publisher catches them instead. The same
  // bug in the emitter package: https://github.com/socketio/socket.io-redis-emitter/issues/139
  const publishing = new Proxy(publisher, {
    get(target, property) {
      if (property === 'publish') {
        return (channel: string, message: string | Buffer) =>
          target.publish(channel, message).catch((error: unknown) => {
            log.error(`Relaying a socket.io event failed: ${String(error)}`);
            return 0;
          });
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return createAdapter(publishing, subscriber, { key: REDIS_CHANNELS.socketIo });
}
