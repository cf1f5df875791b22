import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startSignalingServer } from './index';
import { SocketIoPeer, WsPeer } from './test-support/peers';
import { capturingLog, json, postJson, startTestServer } from './test-support/test-server';

describe('startSignalingServer', () => {
  it('reports the URL and port it listens on', async () => {
    const server = await startTestServer();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('runs several independent instances in one process', async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    const { code } = (await json(
      await postJson(`${a.url}/api/code`, { roomId: randomUUID() }),
    )) as {
      code: string;
    };
    expect((await fetch(`${b.url}/api/code/${code}`)).status).toBe(404);

    const roomId = randomUUID();
    expect(await (await WsPeer.connect(a.url)).join(roomId)).toEqual({
      type: 'room-joined',
      role: 'sender',
    });
    expect(await (await WsPeer.connect(b.url)).join(roomId)).toEqual({
      type: 'room-joined',
      role: 'sender',
    });
  });

  it('close() disconnects every peer and stops listening', async () => {
    const { log } = capturingLog();
    const server = await startSignalingServer({ port: 0, host: '127.0.0.1', log });
    const ws = await WsPeer.connect(server.url);
    const browser = await SocketIoPeer.connect(server.url);
    const browserGone = browser.disconnected();
    await server.close();
    expect((await ws.closed).code).toBe(1001);
    await browserGone;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('binds every interface by default and names loopback in its URL', async () => {
    const { log } = capturingLog();
    const server = await startSignalingServer({ port: 0, log });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
