import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as EventSocketServer } from 'socket.io';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendText } from '../src-main/engine';
import { joinBrowserRoom } from '../src-renderer/backend/browser/browser-seat';
import { SERVER_MESSAGE_MAX_CHARS } from '../src-shared/signaling/limits';
import { CODE_PATH, SOCKET_IO_PATH, WS_PATH } from '../src-shared/signaling/endpoints';

// docs/protocol.md, "Socket transports": an `error` from the server fails the join on every
// surface with the same sentence, the server's words cut to SERVER_MESSAGE_MAX_CHARS.

const LONG_MESSAGE = `Maintenance: ${'the room registry is being moved '.repeat(40)}`;
const SHOWN = `the signaling server reported an error (${LONG_MESSAGE.slice(0, SERVER_MESSAGE_MAX_CHARS)})`;
const ROOM = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/**
 * A signaling server that registers codes and answers every join-room, on both socket
 * transports, with one long `error`.
 */
async function startRefusingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const http: HttpServer = createServer((request, response) => {
    if (request.method === 'POST' && request.url === CODE_PATH) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'acid-acorn-acre' }));
      return;
    }
    response.writeHead(404).end();
  });
  const ws = new WebSocketServer({ noServer: true });
  http.on('upgrade', (request, socket, head) => {
    if (request.url !== WS_PATH) return;
    ws.handleUpgrade(request, socket, head, (client) => {
      client.on('message', () =>
        client.send(JSON.stringify({ type: 'error', message: LONG_MESSAGE })),
      );
    });
  });
  const events = new EventSocketServer(http, { path: SOCKET_IO_PATH });
  events.on('connection', (socket) =>
    socket.on('join-room', () => socket.emit('error', { message: LONG_MESSAGE })),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const client of ws.clients) client.terminate();
      await events.close();
    },
  };
}

let server: Awaited<ReturnType<typeof startRefusingServer>>;

beforeAll(async () => {
  server = await startRefusingServer();
});

afterAll(() => server.close());

describe('a signaling server that answers join-room with a long error', () => {
  it('fails the join with the same shortened sentence on the native and the browser surface', async () => {
    const native = await sendText({
      serverUrl: server.url,
      text: 'never sent',
      remedySurface: 'cli',
    }).finished;
    const browser = await joinBrowserRoom(server.url, ROOM, new AbortController().signal).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(native).toMatchObject({ phase: 'failed', code: 'ERR_SIGNALING_ERROR', message: SHOWN });
    expect(browser).toMatchObject({ code: 'ERR_SIGNALING_ERROR', message: SHOWN });
  });
});
