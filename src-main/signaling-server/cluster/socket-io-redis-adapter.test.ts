import { Server } from 'socket.io';
import { expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import type { ServerToClientEvents } from '../../../src-shared/signaling/socket-events';
import { RedisProcess } from '../test-support/redis-process';
import { capturingLog } from '../test-support/test-server';
import { within } from '../test-support/within';
import { RedisConnections } from './redis-connections';
import { socketIoRedisAdapter } from './socket-io-redis-adapter';

describeNeeding('redis', 'the socket.io Redis adapter', () => {
  // Unhandled, the failed publish would end the process; vitest fails the run on one.
  it('logs a relay that fails while Redis is lost instead of leaving its rejection unhandled', async () => {
    const redis = await RedisProcess.start();
    const { log, logged } = capturingLog();
    const connections = await RedisConnections.open(redis.url, log);
    const io = new Server<Record<string, never>, ServerToClientEvents>({
      adapter: socketIoRedisAdapter(connections.command, connections.socketIoSubscriber, log),
    });
    try {
      await redis.stop();
      await within(5000, 'loss noticed', logged(/Redis: connection lost/));
      io.to('a-peer-on-another-server').emit('peer-disconnected', {});
      expect(
        await within(10_000, 'logged failure', logged(/Relaying a socket.io event failed/)),
      ).toMatch(/Relaying a socket.io event failed: .+/);
    } finally {
      // The server never listened, so only its Redis connections need closing.
      connections.close();
    }
  });
});
