import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../signaling-server';
import { SocketIoPeer, WsPeer } from '../signaling-server/test-support/peers';
import { capturingLog } from '../signaling-server/test-support/test-server';
import { ownHostNames } from './own-host-only';
import { startWebHost } from './start-web-host';

const INDEX_HTML = '<!doctype html><title>Ferry</title>';
const MISDIRECTED = { error: 'Misdirected request: open this server by its own address' };

interface Answer {
  status: number;
  body: string;
}

let root: string;
const hosts: RunningServer[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ferry-own-host-'));
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function room(ownHostOnly: boolean, address = '127.0.0.1'): Promise<RunningServer> {
  const host = await startWebHost({
    root,
    host: address,
    port: 0,
    signaling: { hostCandidatesOnly: true },
    ownHostOnly,
    log: capturingLog().log,
  });
  hosts.push(host);
  return host;
}

/** One HTTP request to the server at `address:port`, with a Host header of the caller's choice. */
function get(address: string, port: number, path: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: address, port, path, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject).end();
  });
}

/** A WebSocket upgrade at `path`: 101 when the server switches protocols, else its refusal. */
function upgrade(address: string, port: number, path: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({
      host: address,
      port,
      path,
      headers: {
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    sent.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: '' });
    });
    sent.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject).end();
  });
}

const WS_PATH = '/ws';
const SOCKET_IO_POLLING = '/socket.io/?EIO=4&transport=polling';
const SOCKET_IO_WEBSOCKET = '/socket.io/?EIO=4&transport=websocket';

describe('a LAN room answers only at its own address and port (DNS rebinding)', () => {
  it('serves the page, the API and both socket transports to its own Host', async () => {
    const host = await room(true);
    const own = `127.0.0.1:${host.port}`;
    expect(await get('127.0.0.1', host.port, '/', own)).toEqual({ status: 200, body: INDEX_HTML });
    expect((await get('127.0.0.1', host.port, '/health', own)).status).toBe(200);
    expect((await get('127.0.0.1', host.port, SOCKET_IO_POLLING, own)).status).toBe(200);
    expect((await upgrade('127.0.0.1', host.port, WS_PATH, own)).status).toBe(101);
    expect((await upgrade('127.0.0.1', host.port, SOCKET_IO_WEBSOCKET, own)).status).toBe(101);
    // The peers Ferry itself runs, which name the room by its URL.
    const native = await WsPeer.connect(host.url);
    await native.ping();
    const browser = await SocketIoPeer.connect(host.url);
    await browser.ping();
  });

  it.each([
    ['another name on the same port', (port: number) => `evil.example:${port}`],
    ['a rebinding name on the default port', () => 'evil.example:3001'],
    ['its own address on another port', (port: number) => `127.0.0.1:${port + 1}`],
    ['its own address without a port', () => '127.0.0.1'],
    ['localhost', (port: number) => `localhost:${port}`],
  ])('refuses %s over HTTP, ws and socket.io with 421', async (_what, hostFor) => {
    const host = await room(true);
    const foreign = hostFor(host.port);
    for (const path of ['/', '/health', '/api/turn-credentials', SOCKET_IO_POLLING]) {
      const answer = await get('127.0.0.1', host.port, path, foreign);
      expect(answer.status, path).toBe(421);
      expect(JSON.parse(answer.body), path).toEqual(MISDIRECTED);
    }
    for (const path of [WS_PATH, SOCKET_IO_WEBSOCKET]) {
      const answer = await upgrade('127.0.0.1', host.port, path, foreign);
      expect(answer.status, path).toBe(421);
      expect(JSON.parse(answer.body), path).toEqual(MISDIRECTED);
    }
  });

  it('takes an IPv6 address in brackets', async () => {
    const host = await room(true, '::1');
    expect((await get('::1', host.port, '/', `[::1]:${host.port}`)).status).toBe(200);
    expect((await upgrade('::1', host.port, WS_PATH, `[::1]:${host.port}`)).status).toBe(101);
    expect((await get('::1', host.port, '/', `::1:${host.port}`)).status).toBe(421);
  });

  it('names its own host the way browsers write it', () => {
    expect(ownHostNames('192.168.1.20', 3001)).toEqual(['192.168.1.20:3001']);
    expect(ownHostNames('FD00::5', 3001)).toEqual(['[fd00::5]:3001']);
    expect(ownHostNames('192.168.1.20', 80)).toEqual(['192.168.1.20:80', '192.168.1.20']);
  });
});

describe('a web host that is not a LAN room', () => {
  it('keeps answering any Host, as before', async () => {
    const host = await room(false);
    expect((await get('127.0.0.1', host.port, '/', 'evil.example:3001')).status).toBe(200);
    expect((await get('127.0.0.1', host.port, SOCKET_IO_POLLING, 'evil.example')).status).toBe(200);
    expect((await upgrade('127.0.0.1', host.port, WS_PATH, 'evil.example')).status).toBe(101);
  });
});
