import { describe, expect, it } from 'vitest';
import { decodeWsClientMessage, decodeWsServerMessage } from './ws-codec';

const ROOM = '3f1c2a9e-8b7d-4c6e-9f00-123456789abc';

describe('decoding what a native peer sends', () => {
  it.each([
    [
      { type: 'join-room', roomId: ROOM },
      { type: 'join-room', roomId: ROOM },
    ],
    [
      { type: 'signal', signal: { sdp: 'x' }, roomId: ROOM },
      { type: 'signal', signal: { sdp: 'x' }, roomId: ROOM },
    ],
    [
      { type: 'signal', signal: 'candidate' },
      { type: 'signal', signal: 'candidate' },
    ],
    [{ type: 'ping', extra: true }, { type: 'ping' }],
  ])('accepts %j', (input, message) => {
    expect(decodeWsClientMessage(JSON.stringify(input))).toEqual({ ok: true, message });
  });

  it.each([
    ['{', 'Invalid JSON'],
    ['42', 'Invalid message'],
    ['{"type":1}', 'Invalid message'],
    ['{"type":"join-room","roomId":"abc"}', 'Invalid room ID'],
    ['{"type":"signal","signal":{},"roomId":7}', 'Invalid room ID'],
    ['{"type":"signal","signal":null}', 'Invalid message'],
    ['{"type":"dance"}', 'Unknown message type'],
  ])('turns %s into the error %s', (text, error) => {
    expect(decodeWsClientMessage(text)).toEqual({ ok: false, error });
  });
});

describe('decoding what the server sends to a native peer', () => {
  it.each([
    { type: 'room-joined', role: 'receiver' },
    { type: 'user-connected', id: 'peer-1' },
    { type: 'signal', signal: { sdp: 'x' }, sender: 'peer-1' },
    { type: 'peer-disconnected' },
    { type: 'room-full' },
    { type: 'pong' },
    { type: 'error', message: 'Invalid room ID' },
  ])('accepts %j', (message) => {
    expect(decodeWsServerMessage(JSON.stringify(message))).toEqual({ ok: true, message });
  });

  it.each([
    '{"type":"room-joined","role":"admin"}',
    '{"type":"user-connected"}',
    '{"type":"signal","signal":{}}',
    '{"type":"error"}',
  ])('rejects %s', (text) => {
    expect(decodeWsServerMessage(text).ok).toBe(false);
  });
});
