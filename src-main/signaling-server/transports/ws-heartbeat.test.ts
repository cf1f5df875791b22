import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_HEARTBEAT_INTERVAL_MS } from '../../../src-shared/signaling/limits';
import { ManualTimers } from '../test-support/manual-time';
import { WsPeer } from '../test-support/peers';
import { startTestServer } from '../test-support/test-server';

/**
 * The client answers the server's ping frame as soon as it reads it; a message sent after that
 * answer comes back only once the server has read the answer too.
 */
async function answeredHeartbeat(peer: WsPeer): Promise<void> {
  await peer.ping();
  await peer.ping();
}

describe('WebSocket heartbeat', () => {
  it('drops a peer that stopped answering pings, and tells the other peer of its room', async () => {
    const timers = new ManualTimers();
    const server = await startTestServer({ every: timers.every });
    const roomId = randomUUID();
    const sender = await WsPeer.connect(server.url);
    await sender.join(roomId);

    const silent = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, { autoPong: false });
    await new Promise((resolve) => silent.once('open', resolve));
    const closed = new Promise<number>((resolve) => silent.once('close', resolve));
    silent.send(JSON.stringify({ type: 'join-room', roomId }));
    expect(await sender.next()).toMatchObject({ type: 'user-connected' });

    await timers.fire(WS_HEARTBEAT_INTERVAL_MS);
    await answeredHeartbeat(sender);
    await timers.fire(WS_HEARTBEAT_INTERVAL_MS);
    expect(await closed).toBe(1006);
    expect(await sender.next()).toEqual({ type: 'peer-disconnected' });

    await answeredHeartbeat(sender);
    await timers.fire(WS_HEARTBEAT_INTERVAL_MS);
    await sender.ping();
  });
});
