import { describe, expect, it } from 'vitest';
import { seatEventOfSocketEvent, seatEventOfWsMessage } from './seat-events';

describe('what the server says, on either transport', () => {
  it('reads the same replies as the same seat events', () => {
    const ws = (message: object) => seatEventOfWsMessage(JSON.stringify(message));
    expect(ws({ type: 'room-joined', role: 'receiver' })).toEqual({
      type: 'room-joined',
      role: 'receiver',
    });
    expect(seatEventOfSocketEvent('room-joined', { role: 'receiver' })).toEqual({
      type: 'room-joined',
      role: 'receiver',
    });
    expect(ws({ type: 'error', message: 'Not in a room' })).toEqual({
      type: 'error',
      message: 'Not in a room',
    });
    expect(seatEventOfSocketEvent('error', { message: 'Not in a room' })).toEqual({
      type: 'error',
      message: 'Not in a room',
    });
    expect(ws({ type: 'signal', signal: { sdp: 'x' }, sender: 'a' })).toEqual({
      type: 'signal',
      payload: { sdp: 'x' },
    });
    expect(seatEventOfSocketEvent('signal', { signal: { sdp: 'x' }, sender: 'a' })).toEqual({
      type: 'signal',
      payload: { sdp: 'x' },
    });
    expect(ws({ type: 'room-full' })).toEqual({ type: 'room-full' });
    expect(seatEventOfSocketEvent('room-full', {})).toEqual({ type: 'room-full' });
    expect(ws({ type: 'pong' })).toBeUndefined();
  });

  it('drops a malformed reply on both: a role that is none, an error without words', () => {
    expect(seatEventOfWsMessage(JSON.stringify({ type: 'room-joined', role: 'admin' }))).toBe(
      undefined,
    );
    expect(seatEventOfSocketEvent('room-joined', { role: 'admin' })).toBeUndefined();
    expect(seatEventOfSocketEvent('room-joined', null)).toBeUndefined();
    expect(seatEventOfWsMessage(JSON.stringify({ type: 'error', message: 7 }))).toBeUndefined();
    expect(seatEventOfSocketEvent('error', { message: 7 })).toBeUndefined();
    expect(seatEventOfSocketEvent('signal', undefined)).toBeUndefined();
  });
});
