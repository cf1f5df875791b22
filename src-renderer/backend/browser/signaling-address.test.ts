import { describe, expect, it } from 'vitest';
import type { HttpAnswer } from '../../../src-shared/http/request-json';
import { signalingAddressFrom } from './signaling-address';

const PAGE = 'http://192.168.1.20:3000';
const answered = (status: number, body: unknown): HttpAnswer => ({
  kind: 'answered',
  status,
  body,
});

describe('where the web client finds the signaling server', () => {
  it('follows the socketUrl the web host configures', () => {
    const answer = answered(200, { socketUrl: 'https://signal.example/', commit: null });
    expect(signalingAddressFrom(answer, PAGE)).toBe('https://signal.example');
  });

  it('uses its own origin when socketUrl is empty', () => {
    expect(signalingAddressFrom(answered(200, { socketUrl: '', commit: null }), PAGE)).toBe(PAGE);
  });

  it('uses its own origin when every /api/ path goes to the signaling server (404)', () => {
    const answer = answered(404, { error: 'Not found' });
    expect(signalingAddressFrom(answer, PAGE)).toBe(PAGE);
  });

  it.each<[string, HttpAnswer]>([
    ['no answer at all', { kind: 'unreachable', detail: 'Failed to fetch' }],
    ['a config that never came', { kind: 'timed-out' }],
    ['a body that is not an object', answered(200, null)],
    ['a socketUrl that is not text', answered(200, { socketUrl: 42 })],
    ['a socketUrl that is no web address', answered(200, { socketUrl: 'javascript:alert(1)' })],
    ['a server error', answered(500, { error: 'Internal server error' })],
  ])('uses its own origin after %s', (_case, answer) => {
    expect(signalingAddressFrom(answer, PAGE)).toBe(PAGE);
  });
});
