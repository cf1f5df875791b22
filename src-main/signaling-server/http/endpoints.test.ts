import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../../../src-shared/signaling/limits';
import { ManualClock } from '../test-support/manual-time';
import { json, postJson, startTestServer } from '../test-support/test-server';

describe('GET /', () => {
  it('answers status ok and the server time in ISO 8601', async () => {
    const clock = new ManualClock(Date.UTC(2025, 5, 1, 12, 0, 0));
    const server = await startTestServer({ now: clock.now });
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'ok', timestamp: '2025-06-01T12:00:00.000Z' });
  });
});

describe('GET /health', () => {
  it('answers status healthy and the process uptime in seconds', async () => {
    const server = await startTestServer();
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    const body = (await json(response)) as { status: string; uptime: number };
    expect(body.status).toBe('healthy');
    expect(body.uptime).toBeGreaterThan(0);
    expect(body.uptime).toBeLessThanOrEqual(process.uptime());
  });
});

describe('every HTTP failure is JSON', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const server = await startTestServer();
    for (const [method, path] of [
      ['GET', '/nowhere'],
      ['POST', '/health'],
      ['DELETE', '/api/code'],
      ['GET', '/api/config'],
    ]) {
      const response = await fetch(`${server.url}${path}`, { method });
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ error: 'Not found' });
    }
  });

  it('answers a malformed JSON body with 400 Bad request', async () => {
    const server = await startTestServer();
    const response = await fetch(`${server.url}/api/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"roomId": ',
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: 'Bad request' });
  });

  it('answers a body over 100 kB with 413', async () => {
    const server = await startTestServer();
    const response = await postJson(`${server.url}/api/stats/report`, {
      bytes: 1,
      padding: 'x'.repeat(MAX_REQUEST_BODY_BYTES),
    });
    expect(response.status).toBe(413);
    expect(await json(response)).toEqual({ error: 'Bad request' });
  });

  it('accepts a body just under 100 kB', async () => {
    const server = await startTestServer();
    const body = JSON.stringify({ roomId: randomUUID(), padding: '' });
    const padded = body.replace('""', `"${'x'.repeat(MAX_REQUEST_BODY_BYTES - body.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(MAX_REQUEST_BODY_BYTES);
    const response = await fetch(`${server.url}/api/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: padded,
    });
    expect(response.status).toBe(200);
  });

  it('collapses a thrown error to 500 Internal server error, the stack only in the server log', async () => {
    const server = await startTestServer({
      randomIndex: () => {
        throw new Error('entropy pool on fire');
      },
    });
    const response = await postJson(`${server.url}/api/code`, { roomId: randomUUID() });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error' });
    expect(text).not.toContain('entropy');
    expect(server.logs.join('\n')).toMatch(/entropy pool on fire\n\s+at /);
  });
});
