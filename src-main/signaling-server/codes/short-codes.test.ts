import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CODE_WORD_SET } from '../../../src-shared/codes/word-list';
import { CODE_LIFETIME_MS, CODE_SWEEP_INTERVAL_MS } from '../../../src-shared/signaling/limits';
import { ManualClock, ManualTimers } from '../test-support/manual-time';
import { json, postJson, startTestServer } from '../test-support/test-server';

async function register(url: string, roomId: unknown): Promise<Response> {
  return postJson(`${url}/api/code`, { roomId });
}

async function resolve(url: string, code: string): Promise<Response> {
  return fetch(`${url}/api/code/${encodeURIComponent(code)}`);
}

describe('POST /api/code', () => {
  it('returns three lowercase words from the word list, joined by hyphens', async () => {
    const server = await startTestServer();
    const response = await register(server.url, randomUUID());
    expect(response.status).toBe(200);
    const { code } = (await json(response)) as { code: string };
    const words = code.split('-');
    expect(words).toHaveLength(3);
    for (const word of words) {
      expect(word).toMatch(/^[a-z]+$/);
      expect(CODE_WORD_SET.has(word)).toBe(true);
    }
  });

  it.each([
    ['a missing roomId', {}],
    ['a roomId that is not a UUID', { roomId: 'room-1' }],
    ['a roomId that is a number', { roomId: 7 }],
    ['a UUID in braces', { roomId: `{${randomUUID()}}` }],
  ])('rejects %s with 400 Invalid room ID', async (_case, body) => {
    const server = await startTestServer();
    const response = await postJson(`${server.url}/api/code`, body);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: 'Invalid room ID' });
  });

  it('rejects a body that is not JSON with 400 Invalid room ID', async () => {
    const server = await startTestServer();
    const response = await fetch(`${server.url}/api/code`, { method: 'POST', body: 'roomId=x' });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: 'Invalid room ID' });
  });

  it('accepts a UUID of any version and in upper case', async () => {
    const server = await startTestServer();
    for (const roomId of [
      '00000000-0000-0000-0000-000000000000',
      '6BA7B810-9DAD-11D1-80B4-00C04FD430C8',
      randomUUID(),
    ]) {
      expect((await register(server.url, roomId)).status).toBe(200);
    }
  });

  it('draws again on a collision with a live code, and after ten collisions draws four words', async () => {
    const indexes = [0, 0, 0, ...Array<number>(30).fill(0), 1, 2, 3, 4];
    const server = await startTestServer({ randomIndex: () => indexes.shift() ?? 5 });
    const first = (await json(await register(server.url, randomUUID()))) as { code: string };
    const second = (await json(await register(server.url, randomUUID()))) as { code: string };
    expect(first.code.split('-')).toHaveLength(3);
    // Ten three-word draws of the same words collide, then four words are drawn.
    expect(indexes).toEqual([]);
    expect(second.code.split('-')).toHaveLength(4);
    expect(second.code.startsWith(first.code)).toBe(false);
  });

  it('answers 503 once MAX_ACTIVE_CODES live codes exist', async () => {
    const server = await startTestServer({ maxActiveCodes: 2 });
    expect((await register(server.url, randomUUID())).status).toBe(200);
    expect((await register(server.url, randomUUID())).status).toBe(200);
    const response = await register(server.url, randomUUID());
    expect(response.status).toBe(503);
    expect(await json(response)).toEqual({ error: 'Server busy, try again shortly' });
  });
});

describe('GET /api/code/:code', () => {
  it('resolves a live code to its room id, and resolving does not delete it', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const { code } = (await json(await register(server.url, roomId))) as { code: string };
    for (let i = 0; i < 2; i += 1) {
      const response = await resolve(server.url, code);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({ roomId });
    }
  });

  it('matches the code exactly as received: no case folding, no trimming', async () => {
    const server = await startTestServer();
    const { code } = (await json(await register(server.url, randomUUID()))) as { code: string };
    for (const variant of [code.toUpperCase(), ` ${code}`, `${code} `, code.replaceAll('-', ' ')]) {
      const response = await resolve(server.url, variant);
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ error: 'Code not found or expired' });
    }
  });

  it('answers an unknown code with 404 Code not found or expired', async () => {
    const server = await startTestServer();
    const response = await resolve(server.url, 'plum-otter-cask');
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: 'Code not found or expired' });
  });
});

function release(url: string, code: string, body: unknown): Promise<Response> {
  return postJson(`${url}/api/code/${encodeURIComponent(code)}/release`, body);
}

describe('a released code (docs/protocol.md, "Dead codes")', () => {
  it.each(['used', 'cancelled'] as const)(
    'still resolves as the spec says, and names how it ended (%s) in Ferry-Code-Outcome',
    async (outcome) => {
      const server = await startTestServer();
      const roomId = randomUUID();
      const { code } = (await json(await register(server.url, roomId))) as { code: string };
      const live = await resolve(server.url, code);
      expect(live.headers.get('ferry-code-outcome')).toBeNull();
      expect((await release(server.url, code, { roomId, outcome })).status).toBe(204);
      const dead = await resolve(server.url, code);
      expect(dead.status).toBe(200);
      expect(await json(dead)).toEqual({ roomId });
      expect(dead.headers.get('ferry-code-outcome')).toBe(outcome);
      expect(dead.headers.get('access-control-expose-headers')).toBe('Ferry-Code-Outcome');
    },
  );

  it('is released only by the holder of its room id, in either case', async () => {
    const server = await startTestServer();
    const roomId = randomUUID();
    const { code } = (await json(await register(server.url, roomId))) as { code: string };
    const other = await release(server.url, code, { roomId: randomUUID(), outcome: 'cancelled' });
    expect(other.status).toBe(404);
    expect(await json(other)).toEqual({ error: 'Code not found or expired' });
    const unknown = await release(server.url, 'plum-otter-cask', { roomId, outcome: 'used' });
    expect(unknown.status).toBe(404);
    expect((await resolve(server.url, code)).headers.get('ferry-code-outcome')).toBeNull();
    const upper = roomId.toUpperCase();
    expect((await release(server.url, code, { roomId: upper, outcome: 'used' })).status).toBe(204);
    expect((await resolve(server.url, code)).headers.get('ferry-code-outcome')).toBe('used');
  });

  it('spends nothing of the failed-lookup budget when refused: it answers no guess', async () => {
    const server = await startTestServer({ maxFailedCodeLookups: 1 });
    const roomId = randomUUID();
    const { code } = (await json(await register(server.url, roomId))) as { code: string };
    for (let i = 0; i < 3; i += 1) {
      const refused = await release(server.url, 'plum-otter-cask', { roomId, outcome: 'used' });
      expect(refused.status).toBe(404);
    }
    expect((await resolve(server.url, code)).status).toBe(200);
  });

  it.each([
    ['no roomId', { outcome: 'used' }],
    ['an outcome it does not know', { roomId: randomUUID(), outcome: 'gone' }],
  ])('refuses a release with %s: 400 Invalid release', async (_case, body) => {
    const server = await startTestServer();
    const response = await release(server.url, 'plum-otter-cask', body);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: 'Invalid release' });
  });

  it('lapses with its lifetime, like any code', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ now: clock.now });
    const roomId = randomUUID();
    const { code } = (await json(await register(server.url, roomId))) as { code: string };
    await release(server.url, code, { roomId, outcome: 'cancelled' });
    clock.advance(CODE_LIFETIME_MS);
    expect((await resolve(server.url, code)).status).toBe(404);
    expect((await release(server.url, code, { roomId, outcome: 'used' })).status).toBe(404);
  });
});

describe('code lifetime', () => {
  it('resolves for 10 minutes from registration, then answers 404', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ now: clock.now });
    const roomId = randomUUID();
    const { code } = (await json(await register(server.url, roomId))) as { code: string };
    clock.advance(CODE_LIFETIME_MS - 1);
    expect(await json(await resolve(server.url, code))).toEqual({ roomId });
    clock.advance(1);
    const response = await resolve(server.url, code);
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: 'Code not found or expired' });
  });

  it('frees a MAX_ACTIVE_CODES slot only when the sweeper clears the lapsed code', async () => {
    const clock = new ManualClock();
    const timers = new ManualTimers();
    const server = await startTestServer({
      now: clock.now,
      every: timers.every,
      maxActiveCodes: 1,
    });
    expect((await register(server.url, randomUUID())).status).toBe(200);
    clock.advance(CODE_LIFETIME_MS);
    expect((await register(server.url, randomUUID())).status).toBe(503);
    await timers.fire(CODE_SWEEP_INTERVAL_MS);
    expect((await register(server.url, randomUUID())).status).toBe(200);
  });

  it('keeps live codes through a sweep', async () => {
    const clock = new ManualClock();
    const timers = new ManualTimers();
    const server = await startTestServer({ now: clock.now, every: timers.every });
    const roomId = randomUUID();
    const { code } = (await json(await register(server.url, roomId))) as { code: string };
    clock.advance(CODE_LIFETIME_MS / 2);
    await timers.fire(CODE_SWEEP_INTERVAL_MS);
    expect(await json(await resolve(server.url, code))).toEqual({ roomId });
  });

  it('lets a lapsed code be drawn again for another room', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ now: clock.now, randomIndex: () => 0 });
    const { code } = (await json(await register(server.url, randomUUID()))) as { code: string };
    clock.advance(CODE_LIFETIME_MS);
    const roomId = randomUUID();
    expect(await json(await register(server.url, roomId))).toEqual({ code });
    expect(await json(await resolve(server.url, code))).toEqual({ roomId });
  });
});
