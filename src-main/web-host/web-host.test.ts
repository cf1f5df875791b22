import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../signaling-server';
import { SocketIoPeer, WsPeer } from '../signaling-server/test-support/peers';
import { capturingLog, json, postJson } from '../signaling-server/test-support/test-server';
import { startWebHost, type WebHostOptions } from './start-web-host';

const INDEX_HTML = '<!doctype html><title>Ferry</title><div id="root"></div>';
const APP_JS = 'console.log("ferry");';
const COMMIT = 'a'.repeat(40);

let root: string;
const hosts: RunningServer[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ferry-web-host-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
  writeFileSync(join(root, 'assets', 'app-1234.js'), APP_JS);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function start(options: WebHostOptions = {}): Promise<RunningServer> {
  const host = await startWebHost({
    root,
    log: capturingLog().log,
    ...options,
    port: 0,
    host: '127.0.0.1',
  });
  hosts.push(host);
  return host;
}

describe('the web-client host', () => {
  it('serves the built renderer, with a long cache for hashed assets and none for the page', async () => {
    const host = await start();
    const page = await fetch(`${host.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe(INDEX_HTML);

    const script = await fetch(`${host.url}/assets/app-1234.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await script.text()).toBe(APP_JS);
  });

  it('answers a deep link with the app, and a missing file with a JSON 404', async () => {
    const host = await start();
    const deep = await fetch(`${host.url}/receive/plum-otter-cask`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(INDEX_HTML);
    const missing = await fetch(`${host.url}/assets/gone.js`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: 'Not found' });
  });

  it('forbids every other site to frame it, on the page, deep links, assets and 404s alike', async () => {
    const host = await start({ signaling: {} });
    for (const path of ['/', '/receive/plum-otter-cask', '/assets/app-1234.js', '/nowhere.js']) {
      const response = await fetch(`${host.url}${path}`);
      expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('answers with a JSON 404 when the renderer has not been built', async () => {
    const host = await start({ root: join(root, 'not-built') });
    const response = await fetch(`${host.url}/`);
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: 'Not found' });
  });

  it('GET /api/config: an empty socketUrl and a null commit when unset', async () => {
    const host = await start();
    expect(await json(await fetch(`${host.url}/api/config`))).toEqual({
      socketUrl: '',
      commit: null,
    });
  });

  it('GET /api/config: the configured socketUrl and commit', async () => {
    const host = await start({ socketUrl: 'https://signal.example.org', commit: COMMIT });
    expect(await json(await fetch(`${host.url}/api/config`))).toEqual({
      socketUrl: 'https://signal.example.org',
      commit: COMMIT,
    });
  });

  it('answers other /api/ paths with a JSON 404 when no signaling server is mounted', async () => {
    const host = await start();
    const response = await fetch(`${host.url}/api/stats`);
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: 'Not found' });
  });
});

describe('the web-client host with the signaling server mounted (one origin)', () => {
  it('serves the page, /api/config, the HTTP endpoints and both socket transports on one port', async () => {
    const host = await start({ signaling: {} });
    expect(await (await fetch(`${host.url}/`)).text()).toBe(INDEX_HTML);
    expect(await json(await fetch(`${host.url}/api/config`))).toEqual({
      socketUrl: '',
      commit: null,
    });
    expect(await json(await fetch(`${host.url}/health`))).toMatchObject({ status: 'healthy' });

    const roomId = randomUUID();
    const { code } = (await json(await postJson(`${host.url}/api/code`, { roomId }))) as {
      code: string;
    };
    expect(await json(await fetch(`${host.url}/api/code/${code}`))).toEqual({ roomId });

    const native = await WsPeer.connect(host.url);
    const browser = await SocketIoPeer.connect(host.url);
    expect(await native.join(roomId)).toEqual({ type: 'room-joined', role: 'sender' });
    expect(await browser.join(roomId)).toEqual({
      event: 'room-joined',
      payload: { role: 'receiver' },
    });
  });

  it('lets a page it serves call in from its own origin, and still rejects foreign origins', async () => {
    const host = await start({ signaling: {} });
    const ownOrigin = host.url;
    const own = await postJson(
      `${host.url}/api/code`,
      { roomId: randomUUID() },
      { origin: ownOrigin },
    );
    expect(own.status).toBe(200);
    await WsPeer.connect(host.url, { origin: ownOrigin });
    const browser = await SocketIoPeer.connect(host.url, {
      transports: ['polling'],
      extraHeaders: { origin: ownOrigin },
    });
    await browser.ping();

    const foreign = await fetch(`${host.url}/api/stats`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(500);
    expect(await json(foreign)).toEqual({ error: 'Internal server error' });
  });

  it('passes signaling options through (limits, say)', async () => {
    const host = await start({ signaling: { maxTurnRequestsPerIp: 1 } });
    expect((await fetch(`${host.url}/api/turn-credentials`)).status).toBe(200);
    expect((await fetch(`${host.url}/api/turn-credentials`)).status).toBe(429);
  });
});
