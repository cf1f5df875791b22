import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REPORT_BYTES } from '../../../src-shared/signaling/limits';
import { json, postJson, startTestServer } from '../test-support/test-server';

async function report(url: string, body: unknown): Promise<Response> {
  return postJson(`${url}/api/stats/report`, body);
}

describe('POST /api/stats/report', () => {
  it('adds the bytes and answers the new total, which GET /api/stats then shows', async () => {
    const server = await startTestServer();
    expect(await json(await fetch(`${server.url}/api/stats`))).toEqual({ totalBytes: 0 });
    expect(await json(await report(server.url, { bytes: 1000 }))).toEqual({ totalBytes: 1000 });
    expect(await json(await report(server.url, { bytes: 24 }))).toEqual({ totalBytes: 1024 });
    expect(await json(await fetch(`${server.url}/api/stats`))).toEqual({ totalBytes: 1024 });
  });

  it('accepts 1 and exactly MAX_REPORT_BYTES (5 TiB by default, as the spec says)', async () => {
    const server = await startTestServer();
    expect((await report(server.url, { bytes: 1 })).status).toBe(200);
    expect(await json(await report(server.url, { bytes: DEFAULT_MAX_REPORT_BYTES }))).toEqual({
      totalBytes: DEFAULT_MAX_REPORT_BYTES + 1,
    });
  });

  it.each([
    ['zero', { bytes: 0 }],
    ['a negative count', { bytes: -5 }],
    ['a fraction', { bytes: 1.5 }],
    ['a numeric string', { bytes: '100' }],
    ['null', { bytes: null }],
    ['a missing count', {}],
    ['one byte over the cap', { bytes: DEFAULT_MAX_REPORT_BYTES + 1 }],
    ['an array body', [1000]],
  ])('rejects %s with 400 Invalid byte count, counting nothing', async (_case, body) => {
    const server = await startTestServer();
    const response = await report(server.url, body);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: 'Invalid byte count' });
    expect(await json(await fetch(`${server.url}/api/stats`))).toEqual({ totalBytes: 0 });
  });

  it('applies a MAX_REPORT_BYTES set in the options', async () => {
    const server = await startTestServer({ maxReportBytes: 100 });
    expect((await report(server.url, { bytes: 100 })).status).toBe(200);
    expect((await report(server.url, { bytes: 101 })).status).toBe(400);
  });

  it('keeps counters of separate servers apart when no Redis is configured', async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    await report(a.url, { bytes: 10 });
    expect(await json(await fetch(`${b.url}/api/stats`))).toEqual({ totalBytes: 0 });
  });
});
