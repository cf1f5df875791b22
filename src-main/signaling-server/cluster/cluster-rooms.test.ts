import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import {
  TRANSPORT_PAIRS,
  connect,
  join,
  nextEvent,
  peerId,
  signal,
  type AnyPeer,
} from '../test-support/any-peer';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { startTestCluster } from '../test-support/test-cluster';
import { stopTestServer } from '../test-support/test-server';
import { within } from '../test-support/within';

// Generous for loopback, short against the test timeout: a lost event fails with its name.
const EVENT_DEADLINE_MS = 5000;
const next = (peer: AnyPeer, what: string) => within(EVENT_DEADLINE_MS, what, nextEvent(peer));
const RACES = 50;
// Every racer comes from 127.0.0.1, and the connection limit is one for the whole cluster.
const ROOM_FOR_RACERS = { maxConnectionsPerIp: 4 * RACES };

describeNeeding('redis', 'rooms shared by servers through Redis', () => {
  describe.each(TRANSPORT_PAIRS)('a %s sender on A and a %s receiver on B', (first, second) => {
    it('get their roles, and the sender hears user-connected from the other server', async () => {
      const { servers } = await startTestCluster(2);
      const roomId = randomUUID();
      const sender = await connect(first, servers[0].url);
      const receiver = await connect(second, servers[1].url);

      expect(await join(sender, roomId)).toEqual({ type: 'room-joined', role: 'sender' });
      expect(await join(receiver, roomId)).toEqual({ type: 'room-joined', role: 'receiver' });
      const userConnected = await next(sender, 'user-connected');
      expect(userConnected).toEqual({ type: 'user-connected', id: expect.any(String) });
      if (receiver instanceof SocketIoPeer) expect(userConnected.id).toBe(receiver.id);
    });

    it('complete signaling both ways', async () => {
      const { servers } = await startTestCluster(2);
      const roomId = randomUUID();
      const sender = await connect(first, servers[0].url);
      const receiver = await connect(second, servers[1].url);
      await join(sender, roomId);
      await join(receiver, roomId);
      const receiverId = peerId(receiver, await next(sender, 'user-connected'));

      const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\n' };
      signal(sender, offer, roomId);
      const relayedOffer = await next(receiver, 'offer');
      expect(relayedOffer).toEqual({ type: 'signal', signal: offer, sender: expect.any(String) });
      if (sender instanceof SocketIoPeer) expect(relayedOffer.sender).toBe(sender.id);

      const answer = { type: 'answer', sdp: 'v=0\r\n' };
      signal(receiver, answer, roomId);
      expect(await next(sender, 'answer')).toEqual({
        type: 'signal',
        signal: answer,
        sender: receiverId,
      });

      // Trickle ICE: many signals each way, in the order they were sent.
      const candidates = Array.from({ length: 20 }, (_, i) => ({ candidate: `c${i}` }));
      for (const candidate of candidates) {
        signal(sender, candidate, roomId);
        signal(receiver, candidate, roomId);
      }
      for (const candidate of candidates) {
        expect(await next(receiver, 'candidate')).toMatchObject({ signal: candidate });
        expect(await next(sender, 'candidate')).toMatchObject({ signal: candidate });
      }
    });

    it('hear peer-disconnected across servers, whichever of them leaves', async () => {
      const { servers } = await startTestCluster(2);
      const roomId = randomUUID();
      const sender = await connect(first, servers[0].url);
      const receiver = await connect(second, servers[1].url);
      await join(sender, roomId);
      await join(receiver, roomId);
      await next(sender, 'user-connected');

      receiver.close();
      expect(await next(sender, 'peer-disconnected')).toEqual({ type: 'peer-disconnected' });

      const newcomer = await connect(second, servers[1].url);
      expect(await join(newcomer, roomId)).toEqual({ type: 'room-joined', role: 'receiver' });
      await next(sender, 'user-connected');
      sender.close();
      expect(await next(newcomer, 'peer-disconnected')).toEqual({ type: 'peer-disconnected' });
    });
  });

  it('answers room-full to a third joiner on a third server, leaving the pair undisturbed', async () => {
    const { servers } = await startTestCluster(3);
    const roomId = randomUUID();
    const sender = await SocketIoPeer.connect(servers[0].url);
    const receiver = await WsPeer.connect(servers[1].url);
    await join(sender, roomId);
    await join(receiver, roomId);
    await next(sender, 'user-connected');

    const third = await WsPeer.connect(servers[2].url);
    expect(await third.join(roomId)).toEqual({ type: 'room-full' });
    const fourth = await SocketIoPeer.connect(servers[2].url);
    expect(await fourth.join(roomId)).toEqual({ event: 'room-full', payload: {} });

    signal(sender, { candidate: 'still here' }, roomId);
    expect(await next(receiver, 'signal')).toMatchObject({ signal: { candidate: 'still here' } });
    await sender.ping();
    expect(sender.inbox.pending()).toEqual([]);
  });

  it(`never seats three when two joins race on two servers (${RACES} races)`, async () => {
    const { servers } = await startTestCluster(3, ROOM_FOR_RACERS);
    for (let race = 0; race < RACES; race += 1) {
      const roomId = randomUUID();
      const sender = await WsPeer.connect(servers[0].url);
      await join(sender, roomId);
      const racers = [
        await WsPeer.connect(servers[1].url),
        await SocketIoPeer.connect(servers[2].url),
      ];
      const outcomes = await Promise.all(racers.map((racer) => join(racer, roomId)));
      expect(outcomes).toContainEqual({ type: 'room-joined', role: 'receiver' });
      expect(outcomes).toContainEqual({ type: 'room-full' });
      expect(await next(sender, 'user-connected')).toMatchObject({ type: 'user-connected' });
      await sender.ping();
      expect(sender.inbox.pending()).toEqual([]);
      for (const peer of [sender, ...racers]) peer.close();
    }
  });

  it(`seats one sender, one receiver and refuses one when three join an empty room at once (${RACES} races)`, async () => {
    const { servers } = await startTestCluster(3, ROOM_FOR_RACERS);
    for (let race = 0; race < RACES; race += 1) {
      const roomId = randomUUID();
      const racers = [
        await WsPeer.connect(servers[0].url),
        await SocketIoPeer.connect(servers[1].url),
        await WsPeer.connect(servers[2].url),
      ];
      const outcomes = await Promise.all(racers.map((racer) => join(racer, roomId)));
      expect(outcomes).toEqual(
        expect.arrayContaining([
          { type: 'room-joined', role: 'sender' },
          { type: 'room-joined', role: 'receiver' },
          { type: 'room-full' },
        ]),
      );
      for (const peer of racers) peer.close();
    }
  });

  it('a mover joining another room on its server frees its seat for a joiner elsewhere', async () => {
    const { servers } = await startTestCluster(3);
    const first = randomUUID();
    const sender = await WsPeer.connect(servers[0].url);
    const mover = await SocketIoPeer.connect(servers[1].url);
    await join(sender, first);
    await join(mover, first);
    await next(sender, 'user-connected');

    expect(await join(mover, randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });
    expect(await next(sender, 'peer-disconnected')).toEqual({ type: 'peer-disconnected' });
    const newcomer = await SocketIoPeer.connect(servers[2].url);
    expect(await join(newcomer, first)).toEqual({ type: 'room-joined', role: 'receiver' });
    expect(await next(sender, 'user-connected')).toEqual({
      type: 'user-connected',
      id: newcomer.id,
    });
  });

  it('a mover that finds its new room full has still left its old one', async () => {
    const { servers } = await startTestCluster(3);
    const full = randomUUID();
    for (const server of servers.slice(1)) await join(await WsPeer.connect(server.url), full);
    const first = randomUUID();
    const sender = await SocketIoPeer.connect(servers[0].url);
    const mover = await WsPeer.connect(servers[1].url);
    await join(sender, first);
    await join(mover, first);
    await next(sender, 'user-connected');

    expect(await mover.join(full)).toEqual({ type: 'room-full' });
    expect(await next(sender, 'peer-disconnected')).toEqual({ type: 'peer-disconnected' });
    signal(mover, { sdp: 'x' }, first);
    expect(await mover.next()).toEqual({ type: 'error', message: 'Not in a room' });
  });

  it('confirms the role again on a repeated join-room; the role follows position once the sender left', async () => {
    const { servers } = await startTestCluster(2);
    const roomId = randomUUID();
    const sender = await WsPeer.connect(servers[0].url);
    const receiver = await SocketIoPeer.connect(servers[1].url);
    await join(sender, roomId);
    await join(receiver, roomId);
    await next(sender, 'user-connected');
    expect(await join(sender, roomId)).toEqual({ type: 'room-joined', role: 'sender' });
    expect(await join(receiver, roomId)).toEqual({ type: 'room-joined', role: 'receiver' });

    sender.close();
    await next(receiver, 'peer-disconnected');
    expect(await join(receiver, roomId)).toEqual({ type: 'room-joined', role: 'sender' });
  });

  it('relays a targeted signal to the named peer on another server', async () => {
    const { servers } = await startTestCluster(2);
    const roomId = randomUUID();
    const sender = await SocketIoPeer.connect(servers[0].url);
    const receiver = await WsPeer.connect(servers[1].url);
    await join(sender, roomId);
    await join(receiver, roomId);
    const { id } = await next(sender, 'user-connected');
    sender.emitRaw('signal', { signal: { sdp: 'x' }, target: id, roomId });
    expect(await next(receiver, 'signal')).toEqual({
      type: 'signal',
      signal: { sdp: 'x' },
      sender: sender.id,
    });
  });

  it('a server that stops frees its seats at once and tells the peers on the others', async () => {
    const { servers } = await startTestCluster(2);
    const roomId = randomUUID();
    const sender = await SocketIoPeer.connect(servers[0].url);
    const receiver = await WsPeer.connect(servers[1].url);
    await join(sender, roomId);
    await join(receiver, roomId);
    await next(sender, 'user-connected');

    await stopTestServer(servers[1]);
    expect(await next(sender, 'peer-disconnected')).toEqual({ type: 'peer-disconnected' });
    const newcomer = await WsPeer.connect(servers[0].url);
    expect(await newcomer.join(roomId)).toEqual({ type: 'room-joined', role: 'receiver' });
  });
});
