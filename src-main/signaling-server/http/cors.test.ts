import { describe, expect, it } from 'vitest';
import { json, startTestServer } from '../test-support/test-server';

function get(url: string, origin?: string): Promise<Response> {
  return fetch(url, { headers: origin === undefined ? {} : { origin } });
}

describe('CORS allow-list', () => {
  it.each(['https://ferry.app', 'https://www.ferry.app', 'http://localhost:3000'])(
    'allows the built-in origin %s',
    async (origin) => {
      const server = await startTestServer();
      const response = await get(`${server.url}/api/stats`, origin);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    },
  );

  it('allows exactly the origin in CLIENT_URL', async () => {
    const server = await startTestServer({ clientUrl: 'https://files.example.org' });
    const response = await get(`${server.url}/api/stats`, 'https://files.example.org');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://files.example.org');
  });

  it.each([
    ['a different scheme', 'https://files.example.org', 'http://files.example.org'],
    ['a trailing slash in CLIENT_URL', 'https://files.example.org/', 'https://files.example.org'],
    [
      'a comma-separated CLIENT_URL',
      'https://a.example.org,https://b.example.org',
      'https://a.example.org',
    ],
    ['another port', 'http://localhost:3000', 'http://localhost:3001'],
  ])('rejects with 500 Internal server error: %s', async (_case, clientUrl, origin) => {
    const server = await startTestServer({ clientUrl });
    const response = await get(`${server.url}/api/stats`, origin);
    expect(response.status).toBe(500);
    expect(await json(response)).toEqual({ error: 'Internal server error' });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rejects an unknown origin on every route, health included', async () => {
    const server = await startTestServer();
    for (const path of ['/', '/health', '/api/turn-credentials', '/nowhere']) {
      const response = await get(`${server.url}${path}`, 'https://evil.example');
      expect(response.status).toBe(500);
      expect(await json(response)).toEqual({ error: 'Internal server error' });
    }
  });

  it('lets a request without an Origin header pass, whatever CLIENT_URL is', async () => {
    const server = await startTestServer({ clientUrl: 'https://files.example.org' });
    const response = await get(`${server.url}/api/stats`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the preflight of an allowed origin', async () => {
    const server = await startTestServer();
    const response = await fetch(`${server.url}/api/code`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://ferry.app',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://ferry.app');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
  });
});
