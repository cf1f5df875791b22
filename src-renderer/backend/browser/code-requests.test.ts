import { describe, expect, it } from 'vitest';
import type { HttpAnswer } from './http-json';
import { registeredCodeFrom, resolvedRoomFrom } from './code-requests';

const answered = (status: number, body: unknown): HttpAnswer => ({
  kind: 'answered',
  status,
  body,
});
const ROOM = '0b4c2a8e-91d3-4f6a-8c3e-2a7d9b1e5f40';

describe('registering the browser sender’s code', () => {
  it('gives the three words the server chose', () => {
    expect(registeredCodeFrom(answered(200, { code: 'acid-otter-plank' }))).toEqual({
      ok: true,
      value: 'acid-otter-plank',
    });
  });

  it.each<[string, HttpAnswer, string]>([
    ['the server is at its code limit', answered(503, { error: 'x' }), 'ERR_SERVER_BUSY'],
    ['this address asked too often', answered(429, { error: 'x' }), 'ERR_RATE_LIMITED'],
    ['the server is out of reach', { kind: 'unreachable', detail: 'x' }, 'ERR_REGISTER_CODE'],
    ['the server took over 30 seconds', { kind: 'timed-out' }, 'ERR_REGISTER_CODE'],
    ['the answer has no code', answered(200, {}), 'ERR_REGISTER_CODE'],
    ['the person cancelled', { kind: 'cancelled' }, 'ERR_CANCELLED'],
  ])('fails when %s', (_case, answer, code) => {
    const outcome = registeredCodeFrom(answer);
    expect(outcome.ok ? undefined : outcome.failure.code).toBe(code);
  });
});

describe('resolving a code to its room', () => {
  it('gives the room id', () => {
    expect(resolvedRoomFrom(answered(200, { roomId: ROOM }))).toEqual({ ok: true, value: ROOM });
  });

  it.each<[string, HttpAnswer, string]>([
    ['the code is unknown or expired', answered(404, { error: 'x' }), 'ERR_CODE_NOT_FOUND'],
    ['this address asked too often', answered(429, { error: 'x' }), 'ERR_RATE_LIMITED'],
    [
      'the server is out of reach',
      { kind: 'unreachable', detail: 'x' },
      'ERR_SIGNALING_UNREACHABLE',
    ],
    ['the room id is not a UUID', answered(200, { roomId: '../x' }), 'ERR_SIGNALING_UNREACHABLE'],
  ])('fails when %s', (_case, answer, code) => {
    const outcome = resolvedRoomFrom(answer);
    expect(outcome.ok ? undefined : outcome.failure.code).toBe(code);
  });
});
