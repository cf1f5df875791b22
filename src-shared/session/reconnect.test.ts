import { describe, expect, it } from 'vitest';
import { RECONNECT_WINDOW_MS } from '../protocol/limits';
import { CONNECT_TIMEOUTS } from './connect-peer';
import { carryOn, reconnect, reconnectRoomId, SeatAfterStart, UNPINNED } from './reconnect';
import { RECONNECT_RETRY_MS } from './session-limits';
import { SessionFailure } from './session-failure';
import { ManualClock } from './testing/manual-clock';
import { signalingPair } from './testing/signaling-pair';

const ROOM = { rejoinSecret: '5a'.repeat(32), generation: 1 };
const NO_ROUTE = {
  createPeer: () => {
    throw new Error('no connection is made in this test');
  },
};
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('restoring a lost link (docs/protocol.md, "Reconnect")', () => {
  it('tries to get back into the room every second, and gives up after 10 minutes', async () => {
    const clock = new ManualClock();
    const rooms: string[] = [];
    const ports = {
      clock,
      timeouts: CONNECT_TIMEOUTS,
      joinRoom: (roomId: string) => {
        rooms.push(roomId);
        return Promise.reject(new Error('the signaling server is out of reach'));
      },
    };
    const attempts: number[] = [];
    let outcome: unknown;
    void reconnect(ports, NO_ROUTE, ROOM, undefined, new AbortController().signal, (n) =>
      attempts.push(n),
    ).catch((error: unknown) => (outcome = error));

    // The room is derived (a hash) before the first try; time runs from that try on.
    while (attempts.length === 0) await settle();
    while (outcome === undefined) {
      await settle();
      clock.advance(RECONNECT_RETRY_MS);
    }

    expect(outcome).toBeInstanceOf(SessionFailure);
    expect(outcome).toMatchObject({
      code: 'ERR_LINK_LOST',
      message: expect.stringContaining('the signaling server is out of reach'),
    });
    expect(attempts.length).toBe(RECONNECT_WINDOW_MS / RECONNECT_RETRY_MS);
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
    // Always the same room, derived from the secret.
    expect(new Set(rooms).size).toBe(1);
    expect(rooms[0]).toBe(await reconnectRoomId(ROOM.rejoinSecret, 1));
  });

  it('stops at once when the person cancels', async () => {
    const clock = new ManualClock();
    const cancel = new AbortController();
    const ports = {
      clock,
      timeouts: CONNECT_TIMEOUTS,
      joinRoom: () => Promise.reject(new Error('out of reach')),
    };
    const trying = reconnect(ports, NO_ROUTE, ROOM, undefined, cancel.signal, () => undefined);
    await settle();
    cancel.abort();
    await expect(trying).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
  });
});

describe('the room to meet again in', () => {
  it('is a UUID that only the secret and the count of lost links decide', async () => {
    const room = await reconnectRoomId(ROOM.rejoinSecret, 1);
    expect(room).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await reconnectRoomId(ROOM.rejoinSecret, 2)).not.toBe(room);
    expect(await reconnectRoomId('c3'.repeat(32), 1)).not.toBe(room);
  });
});

describe('the room once a batch has started', () => {
  it('is left at once when a lost link would not be restored', () => {
    const { sender } = signalingPair();
    new SeatAfterStart(sender).started(false);
    expect(sender.closed).toBe(true);
  });

  it('is kept when it would, and the other program ending fails the transfer instead of a reconnect', async () => {
    const room = signalingPair();
    const watch = new SeatAfterStart(room.sender);
    watch.started(true);
    expect(room.sender.closed).toBe(false);
    expect(() => watch.throwIfPeerLeft()).not.toThrow();

    room.receiver.close();
    await settle();

    expect(watch.peerLeft).toBe(true);
    expect(() => watch.throwIfPeerLeft()).toThrow(
      'the other device closed the connection (its program ended)',
    );
  });
});

describe('a batch whose first connection named no remote certificate', () => {
  it('takes up no restored link: its first lost link ends it, and no reconnect room is joined', async () => {
    const clock = new ManualClock();
    const rooms: string[] = [];
    const ports = {
      clock,
      timeouts: CONNECT_TIMEOUTS,
      joinRoom: (roomId: string) => {
        rooms.push(roomId);
        return Promise.reject(new Error('the signaling server is out of reach'));
      },
    };
    const setting = {
      ports,
      route: NO_ROUTE,
      cancelled: new AbortController().signal,
      direction: 'receive',
      publish: () => undefined,
    } as const;
    const end = {
      lost: true,
      kept: { bytesDone: 0, totalBytes: 1 },
      rejoinSecret: ROOM.rejoinSecret,
    };
    const seat = new SeatAfterStart(signalingPair().receiver);
    let outcome: unknown;
    void carryOn(setting, { end, seat, peer: undefined }, () => Promise.resolve(end)).catch(
      (error: unknown) => (outcome = error),
    );
    for (let turn = 0; turn < 5; turn += 1) await settle();

    expect(outcome).toMatchObject({
      code: 'ERR_LINK_LOST',
      message: expect.stringContaining(UNPINNED),
    });
    expect(rooms).toEqual([]);
  });
});
