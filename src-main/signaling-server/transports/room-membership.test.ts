import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  TRANSPORT_PAIRS,
  connect,
  join,
  nextEvent,
  peerId,
  signal,
} from '../test-support/any-peer';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { startTestServer } from '../test-support/test-server';

describe.each(TRANSPORT_PAIRS)(
  'a room shared by a %s sender and a %s receiver',
  (first, second) => {
    it('gives the first joiner the sender role and the second the receiver role, and tells the sender', async () => {
      const server = await startTestServer();
      const roomId = randomUUID();
      const sender = await connect(first, server.url);
      const receiver = await connect(second, server.url);

      expect(await join(sender, roomId)).toEqual({ type: 'room-joined', role: 'sender' });
      expect(await join(receiver, roomId)).toEqual({ type: 'room-joined', role: 'receiver' });
      const userConnected = await nextEvent(sender);
      expect(userConnected).toEqual({ type: 'user-connected', id: expect.any(String) });
      if (receiver instanceof SocketIoPeer) expect(userConnected.id).toBe(receiver.id);
      await receiver.ping();
      expect(receiver.inbox.pending()).toEqual([]);
    });

    it('relays a signal to the other peer with the sender field, in both directions', async () => {
      const server = await startTestServer();
      const roomId = randomUUID();
      const sender = await connect(first, server.url);
      const receiver = await connect(second, server.url);
      await join(sender, roomId);
      await join(receiver, roomId);
      const userConnected = await nextEvent(sender);
      const receiverId = peerId(receiver, userConnected);

      const offer = { type: 'offer', sdp: 'v=0\r\n' };
      signal(sender, offer, roomId);
      const relayedOffer = await nextEvent(receiver);
      expect(relayedOffer).toEqual({ type: 'signal', signal: offer, sender: expect.any(String) });
      if (sender instanceof SocketIoPeer) expect(relayedOffer.sender).toBe(sender.id);

      const answer = { type: 'answer', sdp: 'v=0\r\n' };
      signal(receiver, answer, roomId);
      expect(await nextEvent(sender)).toEqual({
        type: 'signal',
        signal: answer,
        sender: receiverId,
      });
      await sender.ping();
      expect(sender.inbox.pending()).toEqual([]);
    });

    it('tells the remaining peer when the other disconnects', async () => {
      const server = await startTestServer();
      const roomId = randomUUID();
      const sender = await connect(first, server.url);
      const receiver = await connect(second, server.url);
      await join(sender, roomId);
      await join(receiver, roomId);
      await nextEvent(sender);

      receiver.close();
      expect(await nextEvent(sender)).toEqual({ type: 'peer-disconnected' });
    });
  },
);

describe('room membership', () => {
  it('answers room-full to a third joiner and leaves the two peers undisturbed', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const sender = await WsPeer.connect(server.url);
    const receiver = await SocketIoPeer.connect(server.url);
    await join(sender, roomId);
    await join(receiver, roomId);
    await nextEvent(sender);

    const third = await SocketIoPeer.connect(server.url);
    expect(await third.join(roomId)).toEqual({ event: 'room-full', payload: {} });
    const fourth = await WsPeer.connect(server.url);
    expect(await fourth.join(roomId)).toEqual({ type: 'room-full' });

    await sender.ping();
    await receiver.ping();
    expect(receiver.inbox.pending()).toEqual([]);
    signal(fourth, { candidate: 'x' }, roomId);
    expect(await fourth.next()).toEqual({ type: 'error', message: 'Not in a room' });
  });

  it('lets a new peer take the free place after one leaves, as the second joiner', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const sender = await WsPeer.connect(server.url);
    const receiver = await WsPeer.connect(server.url);
    await join(sender, roomId);
    await join(receiver, roomId);
    await sender.next();

    receiver.close();
    expect(await sender.next()).toEqual({ type: 'peer-disconnected' });
    const newcomer = await WsPeer.connect(server.url);
    expect(await newcomer.join(roomId)).toEqual({ type: 'room-joined', role: 'receiver' });
    expect(await sender.next()).toEqual({ type: 'user-connected', id: expect.any(String) });
  });

  it('treats a room id in upper case as the same room', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const sender = await WsPeer.connect(server.url);
    const receiver = await SocketIoPeer.connect(server.url);
    expect(await sender.join(roomId.toUpperCase())).toEqual({
      type: 'room-joined',
      role: 'sender',
    });
    expect(await receiver.join(roomId)).toEqual({
      event: 'room-joined',
      payload: { role: 'receiver' },
    });
  });

  it('keeps rooms apart', async () => {
    const server = await startTestServer();
    const a = await WsPeer.connect(server.url);
    const b = await WsPeer.connect(server.url);
    expect(await a.join(randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });
    expect(await b.join(randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });
    a.send({ type: 'signal', signal: { sdp: 'x' } });
    await a.ping();
    await b.ping();
  });

  it('confirms the role again when a peer repeats join-room for its room', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const sender = await WsPeer.connect(server.url);
    await sender.join(roomId);
    expect(await sender.join(roomId)).toEqual({ type: 'room-joined', role: 'sender' });
  });
});

describe('moving between rooms', () => {
  it('joining another room leaves the first, whose other peer hears peer-disconnected', async () => {
    const server = await startTestServer();
    const first = randomUUID();
    const sender = await WsPeer.connect(server.url);
    const mover = await SocketIoPeer.connect(server.url);
    await sender.join(first);
    await mover.join(first);
    await sender.next();

    expect(await mover.join(randomUUID())).toEqual({
      event: 'room-joined',
      payload: { role: 'sender' },
    });
    expect(await sender.next()).toEqual({ type: 'peer-disconnected' });
    const newcomer = await WsPeer.connect(server.url);
    expect(await newcomer.join(first)).toEqual({ type: 'room-joined', role: 'receiver' });
  });
});

describe('keepalive', () => {
  it('answers a WebSocket ping with pong', async () => {
    const server = await startTestServer();
    const peer = await WsPeer.connect(server.url);
    peer.send({ type: 'ping' });
    expect(await peer.next()).toEqual({ type: 'pong' });
  });

  it('invokes the event-socket ping callback', async () => {
    const server = await startTestServer();
    const peer = await SocketIoPeer.connect(server.url);
    await expect(peer.ping()).resolves.toBeUndefined();
  });
});
