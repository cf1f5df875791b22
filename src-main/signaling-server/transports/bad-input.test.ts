import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_SIGNAL_MESSAGE_BYTES } from '../../../src-shared/signaling/limits';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { startTestServer } from '../test-support/test-server';

const oversized = 'x'.repeat(MAX_SIGNAL_MESSAGE_BYTES + 1);

describe('bad input on the WebSocket transport gets an error message, and the connection lives on', () => {
  it.each([
    [
      'a room id that is not a UUID',
      { type: 'join-room', roomId: 'not-a-uuid' },
      'Invalid room ID',
    ],
    ['a room id that is a number', { type: 'join-room', roomId: 42 }, 'Invalid room ID'],
    ['a missing room id', { type: 'join-room' }, 'Invalid room ID'],
    [
      'a UUID without hyphens',
      { type: 'join-room', roomId: randomUUID().replaceAll('-', '') },
      'Invalid room ID',
    ],
    ['malformed JSON', '{"type": "join-room",', 'Invalid JSON'],
    ['a JSON array', '[1, 2]', 'Invalid message'],
    ['a JSON string', '"ping"', 'Invalid message'],
    ['null', 'null', 'Invalid message'],
    ['a message without a type', { roomId: randomUUID() }, 'Invalid message'],
    ['an unknown type', { type: 'leave-everything' }, 'Unknown message type'],
    ['a signal without a signal', { type: 'signal', roomId: randomUUID() }, 'Invalid message'],
    ['a signal before joining', { type: 'signal', signal: { sdp: 'x' } }, 'Not in a room'],
    ['an oversized message', { type: 'signal', signal: oversized }, 'Message too large'],
  ])('%s', async (_case, message, error) => {
    const server = await startTestServer();
    const peer = await WsPeer.connect(server.url);
    peer.send(message);
    expect(await peer.next()).toEqual({ type: 'error', message: error });
    await peer.ping();
    expect(await peer.join(randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });
  });

  it('a binary frame holding a valid message is read like text', async () => {
    const server = await startTestServer();
    const peer = await WsPeer.connect(server.url);
    peer.socket.send(Buffer.from(JSON.stringify({ type: 'ping' })), { binary: true });
    expect(await peer.next()).toEqual({ type: 'pong' });
  });

  it('a signal naming another room than the sender is in', async () => {
    const server = await startTestServer();
    const peer = await WsPeer.connect(server.url);
    await peer.join(randomUUID());
    peer.send({ type: 'signal', signal: { sdp: 'x' }, roomId: randomUUID() });
    expect(await peer.next()).toEqual({ type: 'error', message: 'Not in that room' });
  });

  it('a frame above the transport ceiling closes only that connection', async () => {
    const server = await startTestServer();
    const bystander = await WsPeer.connect(server.url);
    const peer = await WsPeer.connect(server.url);
    peer.send('x'.repeat(5 * 1024 * 1024));
    expect((await peer.closed).code).toBe(1009);
    await bystander.ping();
  });
});

describe('bad input on the event socket gets an error event, and the connection lives on', () => {
  it.each([
    ['a room id that is not a UUID', 'join-room', ['not-a-uuid'], 'Invalid room ID'],
    ['a room id inside an object', 'join-room', [{ roomId: randomUUID() }], 'Invalid room ID'],
    ['no room id', 'join-room', [], 'Invalid room ID'],
    ['a signal that is not an object', 'signal', ['offer'], 'Invalid message'],
    ['a signal without a signal', 'signal', [{ target: 'x' }], 'Invalid message'],
    [
      'a signal with a target that is not a string',
      'signal',
      [{ signal: {}, target: 3 }],
      'Invalid message',
    ],
    [
      'a signal with a room id that is not a UUID',
      'signal',
      [{ signal: {}, roomId: 'r' }],
      'Invalid room ID',
    ],
    ['a signal before joining', 'signal', [{ signal: { sdp: 'x' } }], 'Not in a room'],
    ['an unknown event', 'leave-everything', [{}], 'Unknown message type'],
    ['an oversized signal', 'signal', [{ signal: oversized }], 'Message too large'],
  ])('%s', async (_case, event, args, error) => {
    const server = await startTestServer();
    const peer = await SocketIoPeer.connect(server.url);
    peer.emitRaw(event, ...args);
    expect(await peer.next()).toEqual({ event: 'error', payload: { message: error } });
    await peer.ping();
    expect(await peer.join(randomUUID())).toEqual({
      event: 'room-joined',
      payload: { role: 'sender' },
    });
  });

  it('a signal to a target outside the room', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const sender = await SocketIoPeer.connect(server.url);
    const receiver = await SocketIoPeer.connect(server.url);
    const stranger = await SocketIoPeer.connect(server.url);
    await sender.join(roomId);
    await receiver.join(roomId);
    await sender.next();
    sender.emitRaw('signal', { signal: { sdp: 'x' }, target: stranger.id });
    expect(await sender.next()).toEqual({
      event: 'error',
      payload: { message: 'Target is not in your room' },
    });
    sender.emitRaw('signal', { signal: { sdp: 'y' }, target: receiver.id });
    expect(await receiver.next()).toEqual({
      event: 'signal',
      payload: { signal: { sdp: 'y' }, sender: sender.id },
    });
    await stranger.ping();
    expect(stranger.inbox.pending()).toEqual([]);
  });

  it('a ping without a callback is ignored', async () => {
    const server = await startTestServer();
    const peer = await SocketIoPeer.connect(server.url);
    peer.emitRaw('ping');
    await peer.ping();
    expect(peer.inbox.pending()).toEqual([]);
  });
});
