import { describe, expect, it } from 'vitest';
import { defaultFailure, ERROR_CODES, ERROR_MESSAGES, isErrorCode } from './error-codes';

describe('failures carry stable ERR_ codes', () => {
  it.each([
    ['ERR_CONNECT_TIMEOUT', 'timed out establishing a connection'],
    ['ERR_NO_DATA', 'no data arrived within 30s'],
    ['ERR_DELIVERY_TIMEOUT', 'timed out waiting for delivery confirmation'],
    ['ERR_REGISTER_CODE', 'could not register code'],
    ['ERR_SIGNALING_UNREACHABLE', 'could not reach signaling server'],
    ['ERR_CODE_NOT_FOUND', 'code not found or expired'],
    ['ERR_BAD_METADATA', 'refused file description'],
  ] as const)('%s reads as the spec words it: "%s"', (code, message) => {
    expect(ERROR_MESSAGES[code]).toBe(message);
  });

  it('every failure a person can see has a code', () => {
    expect(ERROR_CODES).toEqual(
      expect.arrayContaining([
        'ERR_SIGNAL_TIMEOUT',
        'ERR_CONNECT_TIMEOUT',
        'ERR_CHANNEL_TIMEOUT',
        'ERR_ROLE_TIMEOUT',
        'ERR_ROOM_FULL',
        'ERR_CODE_NOT_FOUND',
        'ERR_REGISTER_CODE',
        'ERR_SIGNALING_UNREACHABLE',
        'ERR_ACK_TIMEOUT',
        'ERR_DRAIN_STALLED',
        'ERR_DELIVERY_TIMEOUT',
        'ERR_NO_DATA',
        'ERR_STALLED',
        'ERR_PEER_CLOSED',
        'ERR_DECLINED',
        'ERR_CANCELLED',
        'ERR_INCOMPATIBLE_VERSION',
        'ERR_PEER_ABORTED',
        'ERR_SIZE_MISMATCH',
        'ERR_OVERRUN',
        'ERR_PROTOCOL',
        'ERR_BAD_METADATA',
        'ERR_SOURCE_CHANGED',
        'ERR_RELAY_SIZE_CAP',
        'ERR_DISK',
      ]),
    );
  });

  it.each(ERROR_CODES)('%s has a one-sentence default message', (code) => {
    const message = ERROR_MESSAGES[code];
    expect(message).toMatch(/^[a-z].*[^.]$/);
    expect(message).not.toContain('. ');
    expect(defaultFailure(code)).toEqual({ code, message });
  });

  it('only the listed codes pass as error codes', () => {
    expect(isErrorCode('ERR_OVERRUN')).toBe(true);
    expect(isErrorCode('ERR_MADE_UP')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});
